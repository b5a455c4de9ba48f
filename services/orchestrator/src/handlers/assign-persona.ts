import { appendDecided, draft, payloadOf, type Bus, type StoredEvent } from '@hearth/bus';
import type { Clock } from '@hearth/clock';
import { deriveId, Events } from '@hearth/events';
import { waitForPosition, type Reactor } from '@hearth/store';
import type { Kysely } from 'kysely';
import type { OrchestratorDb } from '../db.js';
import { PERSONA_LIBRARY } from '../personas/library.js';
import { pickPersona, seedFromId } from '../personas/assign.js';
import { personasProjection } from '../projections/personas.js';

/** OnboardingAnswered → PersonaAssigned, once per user (turn-pipeline §3.1). */
export function createAssignPersonaReactor(deps: { bus: Bus; db: Kysely<OrchestratorDb>; clock: Clock }): Reactor {
  const { bus, db, clock } = deps;
  return {
    name: 'assign-persona',
    sources: ['ingress'],
    async react(event: StoredEvent) {
      if (event.type !== Events.OnboardingAnswered.name) return;
      const answered = payloadOf(event, Events.OnboardingAnswered);
      await appendDecided(bus, 'orchestrator', event.userId, async (last) => {
        // Decide on state that includes every event already on our chain.
        if (last && !(await waitForPosition(db, personasProjection.name, last.subject, last.seq))) {
          throw new Error(`personas projection is behind ${last.subject}@${last.seq}`);
        }
        const existing = await db.selectFrom('personas').select('user_id').where('user_id', '=', event.userId).executeTakeFirst();
        if (existing) return [];
        const { template, seed, style } = pickPersona(PERSONA_LIBRARY, seedFromId(event.id));
        return [
          draft(
            Events.PersonaAssigned,
            {
              aiFriendId: answered.aiFriendId,
              templateId: template.template_id,
              coreArchetype: template.core_archetype,
              friendEnergy: template.friend_energy,
              humorMode: template.humor_mode,
              stableStyleParams: {
                msgLengthPref: style.msg_length_pref,
                emojiFreq: style.emoji_freq,
                humorMode: style.humor_mode,
                directnessLevel: style.directness_level,
                followupQuestionRate: style.followup_question_rate,
                lexiconBias: style.lexicon_bias,
                punctuationQuirks: style.punctuation_quirks,
              },
              personaSeed: seed,
            },
            {
              id: deriveId('orchestrator', 'persona', event.id),
              userId: event.userId,
              occurredAt: clock.now(),
              causationId: event.id,
              correlationId: event.correlationId,
            },
          ),
        ];
      });
    },
  };
}
