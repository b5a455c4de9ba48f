// The caller's relationship and the decision trail of a turn, through the HTTP API,
// against Hearth started as the README starts it (scripts/start) on Postgres.
import { randomUUID } from 'node:crypto';
import { ANSWERS, HearthClient, type Reply } from './support/client.js';
import { startHearth, type RunningHearth } from './support/process.js';

const INITIAL = { relationship_stage: 'STRANGER', rapport_score: 0, sessions_count: 0, last_interaction_at: null, last_stage_promotion_at: null };
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/**
 * Calls `get` until `done` holds of its answer or `timeoutMs` passes, and returns
 * the last answer: the relationship is a projection of the orchestrator's events,
 * which may land a moment after the reply.
 */
async function settled(get: () => Promise<Reply>, done: (r: Reply) => boolean, timeoutMs = 10_000): Promise<Reply> {
  const deadline = Date.now() + timeoutMs;
  let r = await get();
  while (!done(r) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    r = await get();
  }
  return r;
}

describe('relationship and turn audit through the HTTP API (scripts/start, Postgres)', () => {
  let hearth: RunningHearth;
  let anon: HearthClient;
  let admin: HearthClient;

  beforeAll(async () => {
    hearth = await startHearth({ mode: 'all', database: 'postgres' });
    anon = new HearthClient(hearth.url);
    admin = await anon.as({ admin: true });
  });

  afterAll(async () => {
    expect(await hearth?.stop()).toEqual([0]);
  });

  async function onboarded(): Promise<HearthClient> {
    const me = await anon.as();
    expect((await me.call('POST', '/v1/me')).status).toBe(200);
    expect((await me.call('PUT', '/v1/me/onboarding', ANSWERS)).status).toBe(200);
    return me;
  }

  describe('GET /v1/me/relationship', () => {
    it('answers a new user, before any chat, with the initial relationship', async () => {
      const me = await anon.as();
      await me.call('POST', '/v1/me');

      expect(await me.call('GET', '/v1/me/relationship')).toEqual({ status: 200, body: INITIAL });
    });

    it('counts the first session once the user has chatted, for that user only', async () => {
      const me = await onboarded();
      const other = await onboarded();
      expect((await me.call('GET', '/v1/me/relationship')).body).toEqual(INITIAL);

      const reply = await me.say(randomUUID(), 'hi! I just signed up and I love hiking in the mountains');
      expect(reply.status).toBe(200);
      const after = await settled(
        () => me.call('GET', '/v1/me/relationship'),
        (r) => r.body?.sessions_count >= 1,
      );

      expect(after.status).toBe(200);
      expect(after.body).toMatchObject({ relationship_stage: 'STRANGER', sessions_count: 1, last_interaction_at: expect.stringMatching(ISO) });
      expect(after.body.rapport_score).toEqual(expect.any(Number));
      expect(Object.keys(after.body).sort()).toEqual(Object.keys(INITIAL).sort());
      const now = Date.parse((await anon.clock()).body.now);
      expect(Date.parse(after.body.last_interaction_at)).toBeLessThanOrEqual(now);
      // The route is the caller's own: another user still reads their own, untouched relationship.
      expect(await other.call('GET', '/v1/me/relationship')).toEqual({ status: 200, body: INITIAL });
    });

    it('answers 404 for a user that was never created, and 401 without a token', async () => {
      const ghost = await anon.as();

      expect(await ghost.call('GET', '/v1/me/relationship')).toMatchObject({ status: 404, body: { error: { code: 'USER_NOT_FOUND' } } });
      expect(await anon.call('GET', '/v1/me/relationship')).toMatchObject({ status: 401, body: { error: { code: 'UNAUTHENTICATED' } } });
    });
  });

  describe('GET /v1/admin/turns/{message_id}', () => {
    it('shows an admin the decision trail of a turn, every event of it and nothing else', async () => {
      const me = await onboarded();
      const conversation = randomUUID();
      const messageId = randomUUID();
      await me.say(conversation, 'hey there');
      const reply = await me.say(conversation, 'had a long day at work, my boss is stressing me out', messageId);
      expect(reply.status).toBe(200);

      const r = await admin.call('GET', `/v1/admin/turns/${messageId}`);

      expect(r.status).toBe(200);
      const trail = r.body;
      expect(Object.keys(trail).sort()).toEqual(
        [
          'conversation_id',
          'events',
          'gates',
          'llm',
          'message_id',
          'outcome',
          'packet',
          'plan',
          'relationship',
          'retrieval',
          'routing',
          'surfaced_memory_ids',
          'user_id',
          'writebacks',
        ].sort(),
      );
      expect(trail).toMatchObject({
        message_id: messageId,
        user_id: me.userId,
        conversation_id: conversation,
        packet: { messageId, conversationId: conversation, text: 'had a long day at work, my boss is stressing me out', userState: 'ACTIVE' },
        routing: { messageId, decision: { pipeline: reply.body.routing.pipeline, memoryReadPolicy: reply.body.routing.memory_read_policy } },
        outcome: expect.any(String),
        surfaced_memory_ids: reply.body.assistant.surfaced_memory_ids,
      });
      expect(Array.isArray(trail.gates)).toBe(true);
      for (const g of trail.gates) expect(g).toMatchObject({ gate: expect.any(String) });
      expect(Array.isArray(trail.llm.exchanges)).toBe(true);
      expect(trail.llm.final === null || typeof trail.llm.final === 'object').toBe(true);
      expect(trail.plan === null || typeof trail.plan === 'object').toBe(true);
      expect(trail.retrieval === null || typeof trail.retrieval === 'object').toBe(true);

      // Every event is the turn's own, and the trail's parts are read from them.
      const events: any[] = trail.events;
      expect(events.map((e) => e.correlation_id)).toEqual(events.map(() => messageId));
      const types = events.map((e) => e.type);
      expect(types).toEqual(expect.arrayContaining(['hearth.ingress.v1.TurnReceived', 'hearth.router.v1.TurnRouted', 'hearth.orchestrator.v1.TurnCompleted']));
      const completed = events.find((e) => e.type === 'hearth.orchestrator.v1.TurnCompleted');
      expect(completed.payload).toMatchObject({ messageId, assistantText: reply.body.assistant.text });
      expect(trail.relationship).toEqual(events.find((e) => e.type === 'hearth.orchestrator.v1.RelationshipUpdated')?.payload ?? null);
      const parts = new Set([
        'hearth.ingress.v1.TurnReceived',
        'hearth.router.v1.TurnRouted',
        'hearth.orchestrator.v1.TurnCompleted',
        'hearth.orchestrator.v1.RelationshipUpdated',
      ]);
      expect(trail.writebacks).toEqual(events.filter((e) => !parts.has(e.type)).map((e) => ({ type: e.type, event_id: e.event_id, service: e.service })));

      // The same events, in the same order, as in the user's timeline.
      const timeline = await admin.call('GET', `/v1/admin/users/${me.userId}/timeline`);
      const ids = new Set(events.map((e) => e.event_id));
      expect(timeline.body.events.filter((e: any) => ids.has(e.event_id)).map((e: any) => e.event_id)).toEqual(events.map((e) => e.event_id));
    });

    it('shows a user-state refusal as the refusal outcome', async () => {
      const me = await anon.as();
      await me.call('POST', '/v1/me');
      const messageId = randomUUID();
      expect((await me.say(randomUUID(), 'hello?', messageId)).body.routing.pipeline).toBe('REFUSAL');

      const r = await admin.call('GET', `/v1/admin/turns/${messageId}`);

      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ packet: { userState: 'CREATED' }, outcome: 'refusal', relationship: null, llm: { final: null, exchanges: [] } });
    });

    it('answers 403 to a non-admin, 404 for an unknown turn, 422 for a message_id that is no uuid, 401 without a token', async () => {
      const me = await onboarded();
      const messageId = randomUUID();
      await me.say(randomUUID(), 'hi', messageId);

      expect(await me.call('GET', `/v1/admin/turns/${messageId}`)).toMatchObject({ status: 403, body: { error: { code: 'FORBIDDEN' } } });
      expect(await admin.call('GET', `/v1/admin/turns/${randomUUID()}`)).toMatchObject({ status: 404, body: { error: { code: 'TURN_NOT_FOUND' } } });
      expect(await admin.call('GET', '/v1/admin/turns/not-a-uuid')).toMatchObject({ status: 422, body: { error: { code: 'INVALID_FIELDS' } } });
      expect(await anon.call('GET', `/v1/admin/turns/${messageId}`)).toMatchObject({ status: 401 });
    });
  });
});
