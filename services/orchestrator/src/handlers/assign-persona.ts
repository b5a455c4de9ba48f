import { randomInt } from 'node:crypto';
import { appendDecided, draft, GLOBAL_KEYS, payloadOf, type Bus, type StoredEvent } from '@hearth/bus';
import type { Clock } from '@hearth/clock';
import { deriveId, Events } from '@hearth/events';
import type { Logger } from '@hearth/telemetry';
import { requirePosition, type Reactor } from '@hearth/store';
import { sql, type Kysely } from 'kysely';
import { PERSONA } from '../config.js';
import type { OrchestratorDb } from '../db.js';
import { comboKey, windowStart, type CapWindow } from '../personas/cap.js';
import { PERSONA_LIBRARY } from '../personas/library.js';
import { samplePersona } from '../personas/sampling.js';
import { personasProjection } from '../projections/personas.js';

export interface AssignPersonaDeps {
  bus: Bus;
  db: Kysely<OrchestratorDb>;
  clock: Clock;
  logger?: Logger;
  /**
   * The persona_seed source (turn-pipeline §3.3: a random 32-bit int, recorded
   * in the event). Injected so tests can fix it.
   * @default crypto.randomInt over [0, 2^32)
   */
  randomSeed?: () => number;
}

/**
 * N_prev and k_prev of every combo (§3.4.1): windowOf's window, counted by
 * Postgres. No upper bound, for the reason windowOf gives.
 */
export async function capWindow(db: Kysely<OrchestratorDb>, now: Date): Promise<CapWindow> {
  const rows = await db
    .selectFrom('personas')
    .select(['core_archetype', 'humor_mode', 'friend_energy', sql<string>`count(*)`.as('n')])
    .where('assigned_at', '>=', windowStart(now))
    .groupBy(['core_archetype', 'humor_mode', 'friend_energy'])
    .execute();
  const counts = new Map<string, number>();
  let total = 0;
  for (const r of rows) {
    const n = Number(r.n);
    counts.set(comboKey(r.core_archetype, r.humor_mode, r.friend_energy), n);
    total += n;
  }
  return { total, counts };
}

/**
 * OnboardingAnswered → PersonaAssigned, once per user (turn-pipeline §3).
 *
 * The anti-cloning cap (§3.4.1) is one global aggregate, so every assignment
 * is appended to one reserved subject, the assignment log, against its last
 * sequence: a decision is taken on the log as projected up to that sequence,
 * and if another replica appended first the append fails and the decision is
 * taken again on the newer log. Within a process assignments queue behind one
 * another, so contention is between replicas only.
 */
export function createAssignPersonaReactor(deps: AssignPersonaDeps): Reactor {
  const { bus, db, clock } = deps;
  const randomSeed = deps.randomSeed ?? (() => randomInt(0, 2 ** 32));
  const key = GLOBAL_KEYS.personaAssignments;
  let queue: Promise<unknown> = Promise.resolve();

  async function assign(event: StoredEvent): Promise<void> {
    const answered = payloadOf(event, Events.OnboardingAnswered);
    const results = await appendDecided(
      bus,
      'orchestrator',
      key,
      async (last) => {
        // Decide on the log as it stands at `last`, this user's earlier assignment included.
        await requirePosition(db, personasProjection.name, last);
        const existing = await db.selectFrom('personas').select('user_id').where('user_id', '=', event.userId).executeTakeFirst();
        if (existing) return [];
        // The log's timestamps never go backwards, whichever replica's clock stamps them.
        const now = new Date(Math.max(clock.now().getTime(), last?.occurredAt.getTime() ?? 0));
        const window = await capWindow(db, now);
        const s = samplePersona(PERSONA_LIBRARY, randomSeed(), window);
        if (s.fallback) {
          deps.logger?.warn({ userId: event.userId, combo: s.combo, window: s.windowTotal }, 'anti-cloning cap: no compliant sample, fallback combo chosen');
        }
        return [
          draft(
            Events.PersonaAssigned,
            {
              aiFriendId: answered.aiFriendId,
              templateId: s.template.template_id,
              coreArchetype: s.template.core_archetype,
              friendEnergy: s.values.friend_energy,
              humorMode: s.values.humor_mode,
              stableStyleParams: {
                msgLengthPref: s.style.msg_length_pref,
                emojiFreq: s.style.emoji_freq,
                humorMode: s.style.humor_mode,
                directnessLevel: s.style.directness_level,
                followupQuestionRate: s.style.followup_question_rate,
                lexiconBias: s.style.lexicon_bias,
                punctuationQuirks: [...s.style.punctuation_quirks],
              },
              personaSeed: s.seed,
              mutatedCategories: [...s.mutated],
              resamples: s.resamples,
              fallback: s.fallback,
              windowTotal: s.windowTotal,
              windowComboCount: s.windowComboCount,
              // Issue 16: the belief graph seeds the companion's first identity beliefs from these.
              selfStatements: [...s.template.self_statements],
            },
            {
              id: deriveId('orchestrator', 'persona', event.id),
              userId: event.userId,
              occurredAt: now,
              causationId: event.id,
              correlationId: event.correlationId,
            },
          ),
        ];
      },
      { attempts: PERSONA.assignAttempts },
    );
    if (results.length > 0 && !results[0]!.duplicate) {
      deps.logger?.debug({ userId: event.userId, seq: results[0]!.seq }, 'persona assigned');
    }
  }

  return {
    name: 'assign-persona',
    sources: ['ingress'],
    types: [Events.OnboardingAnswered.name],
    async react(event: StoredEvent) {
      if (event.type !== Events.OnboardingAnswered.name) return;
      const run = queue.then(() => assign(event));
      queue = run.catch(() => undefined);
      await run;
    },
  };
}
