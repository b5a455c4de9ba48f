// TurnRouted → the orchestrator's answer, against real NATS and Postgres: the
// user-state gates produce ChatRefused (kept out of the history), a safety
// refusal and a crisis-safe turn produce an ordinary TurnCompleted.
import { randomUUID } from 'node:crypto';
import { Bus, draft, type RunningConsumer, type StoredEvent } from '@hearth/bus';
import { ManualClock } from '@hearth/clock';
import { Events } from '@hearth/events';
import { schemaFor } from '@hearth/host';
import type { router } from '@hearth/proto';
import { migrateSchema, openDatabase, schemaDb, startReactor, type Database } from '@hearth/store';
import { cleanupNamespace, databaseUrl, dropSchemas, natsUrl, testNamespace, waitFor } from '@hearth/testing';
import type { Kysely } from 'kysely';
import type { OrchestratorDb } from '../db.js';
import { service } from '../index.js';
import { createMemoryClient } from '../adapters/memory.js';
import { CRISIS_SAFE_TEXT, FINISH_ONBOARDING_TEXT, REFUSAL_TEXT } from '../responder/fixed.js';
import { createRespondReactor } from './respond.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

function decision(over: Partial<router.RoutingDecision>): router.RoutingDecision {
  return {
    pipeline: 'FRIEND_CHAT',
    safetyPolicy: 'ALLOW',
    memoryReadPolicy: 'FULL',
    vectorSearchPolicy: 'ON_DEMAND',
    memoryWritePolicy: 'SELECTIVE',
    relationshipUpdatePolicy: 'ON',
    retentionPolicy: '',
    retrievalQueryText: '',
    notes: '',
    safetyReason: '',
    crisisSafe: false,
    ...over,
  };
}

describe('respond reactor', () => {
  const ns = testNamespace('t_orch_respond');
  const clock = new ManualClock(new Date('2026-11-22T09:00:00Z'));
  let dbUrl: string;
  let database: Database;
  let db: Kysely<OrchestratorDb>;
  let bus: Bus;
  const running: RunningConsumer[] = [];

  beforeAll(async () => {
    dbUrl = await databaseUrl();
    database = await openDatabase({ url: dbUrl });
    const schema = schemaFor(ns, 'orchestrator');
    await migrateSchema(database, schema, service.migrations);
    db = schemaDb<OrchestratorDb>(database, schema);
    bus = await Bus.connect({ url: await natsUrl(), name: 'respond-test', namespace: ns, logger: silent });
    await bus.ensureStreams(['router', 'orchestrator']);
    running.push(...(await startReactor(bus, db, 'orchestrator', createRespondReactor({ bus, db, clock, memory: createMemoryClient(bus, { timeoutMs: 500 }), chat: null }))));
  });

  afterAll(async () => {
    await Promise.all(running.map((c) => c.stop()));
    await bus?.close();
    await database?.close();
    await dropSchemas(dbUrl, ns);
    await cleanupNamespace(await natsUrl(), ns);
  });

  /** Appends one TurnRouted for a fresh user and returns the orchestrator's answer. */
  async function answer(routed: { userState: string; activatesUser?: boolean; missingOnboarding?: string[]; decision: router.RoutingDecision }): Promise<StoredEvent> {
    const userId = randomUUID();
    const messageId = randomUUID();
    await bus.append(
      'router',
      userId,
      [
        draft(
          Events.TurnRouted,
          {
            messageId,
            conversationId: randomUUID(),
            decision: routed.decision,
            flags: [],
            topicMatches: [],
            userState: routed.userState,
            text: 'hello',
            aiFriendId: randomUUID(),
            source: 'chat',
            userTextNorm: 'hello',
            normNoPunct: 'hello',
            tokenEstimate: 1,
            heuristicFlags: [],
            ageBand: '25-34',
            activatesUser: routed.activatesUser ?? false,
            missingOnboarding: routed.missingOnboarding ?? [],
          },
          { id: randomUUID(), userId, occurredAt: clock.now() },
        ),
      ],
      0,
    );
    return waitFor(
      async () => {
        for await (const e of bus.read('orchestrator', { key: userId })) {
          if (e.type === Events.TurnCompleted.name || e.type === Events.ChatRefused.name) return e;
        }
        return undefined;
      },
      { timeoutMs: 20_000, what: 'the answer' },
    );
  }

  it('answers a CREATED user with ChatRefused asking to finish onboarding (§6.1.1)', async () => {
    const e = await answer({ userState: 'CREATED', decision: decision({ pipeline: 'REFUSAL', relationshipUpdatePolicy: 'OFF' }) });
    expect(e.type).toBe(Events.ChatRefused.name);
    expect(Events.ChatRefused.decode(e.payload).text).toBe(FINISH_ONBOARDING_TEXT);
  });

  it('answers an ONBOARDING message that could not activate with ChatRefused naming what is missing (§4.1.2 step 5)', async () => {
    const e = await answer({
      userState: 'ONBOARDING',
      activatesUser: false,
      missingOnboarding: ['persona'],
      decision: decision({ pipeline: 'ONBOARDING_CHAT', memoryWritePolicy: 'NONE', relationshipUpdatePolicy: 'OFF', notes: 'onboarding incomplete: missing persona' }),
    });
    expect(e.type).toBe(Events.ChatRefused.name);
    const refused = Events.ChatRefused.decode(e.payload);
    expect(refused.text).toMatch(/getting ready to meet you/);
    expect(refused.reason).toBe('onboarding incomplete: missing persona');
  });

  it('answers the activating first message with an ordinary reply', async () => {
    const e = await answer({ userState: 'ONBOARDING', activatesUser: true, decision: decision({ pipeline: 'ONBOARDING_CHAT' }) });
    expect(e.type).toBe(Events.TurnCompleted.name);
  });

  it('answers a hard refusal with a TurnCompleted carrying the refusal text, so it stays in the history', async () => {
    const e = await answer({
      userState: 'ACTIVE',
      decision: decision({ pipeline: 'REFUSAL', safetyPolicy: 'HARD_REFUSE', safetyReason: 'sexual_explicit', relationshipUpdatePolicy: 'OFF', memoryWritePolicy: 'NONE' }),
    });
    expect(e.type).toBe(Events.TurnCompleted.name);
    const done = Events.TurnCompleted.decode(e.payload);
    expect(done.assistantText).toBe(REFUSAL_TEXT.HARD_REFUSE);
    // Fixed words, no LLM; the gates that still apply are recorded, the persona bands exempt.
    expect(done.outcome).toBe('refusal');
    expect(done.gates.find((g) => g.gate === 'safety')).toMatchObject({ pass: true });
    expect(done.gates.find((g) => g.gate === 'emoji_band')).toMatchObject({ pass: true, detail: 'exempt' });
    // §2.2: a hard refusal updates no relationship.
    const all: string[] = [];
    for await (const x of bus.read('orchestrator', { key: e.userId })) all.push(x.type);
    expect(all).toEqual([Events.TurnCompleted.name]);
    expect(done.routing?.safetyReason).toBe('sexual_explicit');
  });

  it('answers self-harm intent with the crisis-safe reply', async () => {
    const e = await answer({ userState: 'ACTIVE', decision: decision({ pipeline: 'EMOTIONAL_SUPPORT', crisisSafe: true, safetyReason: 'self_harm_intent' }) });
    expect(e.type).toBe(Events.TurnCompleted.name);
    expect(Events.TurnCompleted.decode(e.payload)).toMatchObject({ assistantText: CRISIS_SAFE_TEXT.replace('{name}', 'friend'), outcome: 'crisis_safe' });
  });
});
