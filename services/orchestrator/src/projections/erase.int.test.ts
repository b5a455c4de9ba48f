// Erasure in the orchestrator's projections (ARCHITECTURE.md "Personal data, export and
// erasure", invariant 9), against real Postgres: after `erase` no row of the
// user is left while another user's rows are intact, and the tables equal a
// replay that passes over the erased user's (unreadable) events.
import { randomUUID } from 'node:crypto';
import { GLOBAL_KEYS } from '@hearth/bus';
import { Events } from '@hearth/events';
import { ingress, orchestrator } from '@hearth/proto';
import { openErasureHarness, type ErasureHarness } from '@hearth/testing';
import type { OrchestratorDb } from '../db.js';
import { capWindow } from '../handlers/assign-persona.js';
import { service } from '../index.js';
import { personasProjection } from './personas.js';
import { profilesProjection } from './profiles.js';
import { turnsProjection } from './turns.js';

let h: ErasureHarness<OrchestratorDb>;

beforeAll(async () => {
  h = await openErasureHarness('t_orch_erase', service.migrations);
});

afterAll(() => h.close());

describe('orchestrator projections erase a user (invariant 9)', () => {
  const a = randomUUID();
  const b = randomUUID();

  it('profiles: name, age band, zone, controls', async () => {
    const next = h.streamOf('ingress');
    const events = [a, b].flatMap((u) => [
      next(Events.UserCreated, { userId: u }, u),
      next(Events.OnboardingAnswered, ingress.OnboardingAnswered.fromPartial({ answers: { preferredName: `name-${u}`, ageBand: '25_34', clientTimezone: 'Asia/Seoul' }, aiFriendId: randomUUID() }), u),
      next(Events.ControlsUpdated, ingress.ControlsUpdated.fromPartial({ proactiveMessagesEnabled: false, suppressedTopics: ['ROMANCE'] }), u),
      next(Events.TurnReceived, ingress.TurnReceived.fromPartial({ messageId: randomUUID(), conversationId: randomUUID(), text: 'hi', source: 'chat', activatesUser: true }), u),
    ]);
    await h.eraseAndCompare(profilesProjection, events, a, b);
  });

  it('turns: every reply (dialogue) and the relationship', async () => {
    const next = h.streamOf('orchestrator');
    const events = [a, b, a, b].flatMap((u) => {
      const messageId = randomUUID();
      return [
        next(
          Events.TurnCompleted,
          orchestrator.TurnCompleted.fromPartial({
            messageId,
            conversationId: randomUUID(),
            assistantMessageId: randomUUID(),
            userText: `my sister Mina moved to Busan (${u})`,
            assistantText: 'Oh, how is Mina doing?',
            openerNorm: 'oh',
            plan: { userInitiatedTopics: ['FAMILY'] },
          }),
          u,
        ),
        next(Events.RelationshipUpdated, orchestrator.RelationshipUpdated.fromPartial({ aiFriendId: randomUUID(), next: { stage: 'ACQUAINTANCE', rapportScore: 3, sessionsCount: 1 } }), u),
      ];
    });
    await h.eraseAndCompare(turnsProjection, events, a, b);
  });

  it('personas: the user\'s row on the shared assignment log; the anti-cloning window then counts as replay does', async () => {
    const next = h.streamOf('orchestrator');
    const assigned = (u: string, archetype: string, total: number) =>
      next(
        Events.PersonaAssigned,
        orchestrator.PersonaAssigned.fromPartial({
          aiFriendId: randomUUID(),
          templateId: `t-${archetype}`,
          coreArchetype: archetype,
          friendEnergy: 'calm',
          humorMode: 'dry',
          stableStyleParams: { msgLengthPref: 'short' },
          personaSeed: 7,
          mutatedCategories: ['humor_mode'],
          windowTotal: total,
          windowComboCount: 0,
        }),
        u,
        GLOBAL_KEYS.personaAssignments,
      );
    const events = [assigned(a, 'sunny', 0), assigned(b, 'sunny', 1), assigned(randomUUID(), 'quiet', 2)];

    // when
    const { live, replay } = await h.eraseAndCompare(personasProjection, events, a, b);

    // then: the window no longer counts a's assignment, as replay never did
    const now = new Date(events.at(-1)!.occurredAt.getTime() + 60_000);
    const window = await capWindow(live.db, now);
    expect(window).toEqual(await capWindow(replay.db, now));
    expect(window.total).toBe(2);
    expect(window.counts.get('sunny|dry|calm')).toBe(1);
  });
});
