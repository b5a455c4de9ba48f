// Retention at the ingress edge (turn-pipeline §14) against real NATS and Postgres:
// ingress hosted as in production, its HTTP API called over the network, the
// orchestrator's retention TurnCompleted appended as it would, and the retention
// service's GetRetention answered by a fake responder.
import { randomUUID } from 'node:crypto';
import { appendDecided, Bus, LocalKek, draft, type ServiceName, type StoredEvent } from '@hearth/bus';
import { Events, GET_RETENTION } from '@hearth/events';
import { runHearth, type HearthProcess } from '@hearth/host';
import { ingress, orchestrator, retention } from '@hearth/proto';
import { replayProjection } from '@hearth/store';
import { cleanupNamespace, databaseUrl, dropSchemas, natsUrl, testNamespace, waitFor } from '@hearth/testing';
import type { Kysely } from 'kysely';
import type { IngressDb } from '../db.js';
import { appOpenEventId } from '../users/app-open.js';
import { service } from '../index.js';
import { turnsProjection } from '../projections/turns.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const HOUR_MS = 3_600_000;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

interface Reply {
  status: number;
  body: any;
}

describe('retention at the ingress edge', () => {
  const ns = testNamespace('t_ingress_ret');
  let dbUrl: string;
  let hearth: HearthProcess;
  /** The orchestrator's and the retention service's side of the bus. */
  let bus: Bus;
  let admin: string;
  /** What the fake retention service answers; a test swaps it. */
  let answerRetention: (userId: string) => Promise<retention.GetRetentionResponse>;
  const asked: string[] = [];

  beforeAll(async () => {
    const nats = await natsUrl();
    dbUrl = await databaseUrl();
    hearth = await runHearth({
      services: [service],
      // The 503 case logs a warning on purpose.
      env: { HEARTH_ENV: 'test', HEARTH_NAMESPACE: ns, NATS_URL: nats, DATABASE_URL: dbUrl, LOG_LEVEL: process.env.LOG_LEVEL ?? 'error' },
      port: 0,
    });
    bus = await Bus.connect({ url: nats, name: 'ingress-retention-test', namespace: ns, logger: silent, encryption: { kek: LocalKek.forDevelopment(ns) } });
    await bus.serveQuery('retention', GET_RETENTION, async (request) => {
      const { userId } = retention.GetRetentionRequest.decode(request);
      asked.push(userId);
      return retention.GetRetentionResponse.encode(await answerRetention(userId)).finish();
    });
    admin = (await devToken(randomUUID(), true)).token;
  });

  afterAll(async () => {
    await bus?.close();
    await hearth?.stop();
    await dropSchemas(dbUrl, ns);
    await cleanupNamespace(await natsUrl(), ns);
  });

  beforeEach(() => {
    answerRetention = () => Promise.resolve(retention.GetRetentionResponse.fromPartial({ found: false }));
  });

  async function call(method: string, path: string, opts: { token?: string; body?: unknown; raw?: string } = {}): Promise<Reply> {
    const payload = opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
    const res = await fetch(`${hearth.url}${path}`, {
      method,
      headers: {
        ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      },
      body: payload,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  async function devToken(userId: string, isAdmin = false): Promise<{ token: string; user_id: string }> {
    const r = await call('POST', '/v1/dev/token', { body: { user_id: userId, ...(isAdmin ? { roles: ['admin'] } : {}) } });
    expect(r.status).toBe(200);
    return r.body;
  }

  /** A user created with POST /v1/me, and their token. */
  async function newUser(): Promise<{ userId: string; token: string }> {
    const userId = randomUUID();
    const { token } = await devToken(userId);
    expect((await call('POST', '/v1/me', { token })).status).toBe(200);
    return { userId, token };
  }

  async function append(service: ServiceName, userId: string, drafts: ReturnType<typeof draft>[]): Promise<void> {
    await appendDecided(bus, service, userId, () => drafts);
  }

  /** A proactive message as the orchestrator appends it: a TurnCompleted with no TurnReceived. */
  async function proactive(userId: string, conversationId: string, text: string, sentAt: Date): Promise<{ retentionId: string; notificationId: string }> {
    const retentionId = randomUUID();
    const notificationId = randomUUID();
    const completed = orchestrator.TurnCompleted.fromPartial({
      messageId: retentionId,
      conversationId,
      assistantMessageId: notificationId,
      assistantText: text,
      source: 'retention',
      userText: '',
      outcome: 'draft',
      retentionId,
      retentionStep: 'check_in',
      retentionRenders: 1,
    });
    await append('orchestrator', userId, [draft(Events.TurnCompleted, completed, { id: randomUUID(), userId, occurredAt: sentAt, correlationId: retentionId })]);
    await visible(userId, retentionId);
    return { retentionId, notificationId };
  }

  /** A chat turn as ingress and the orchestrator append it. */
  async function chat(userId: string, conversationId: string, text: string, at: Date): Promise<{ messageId: string; assistantMessageId: string }> {
    const messageId = randomUUID();
    const assistantMessageId = randomUUID();
    const received = ingress.TurnReceived.fromPartial({ messageId, conversationId, text, source: 'chat', userState: 'ACTIVE' });
    await append('ingress', userId, [draft(Events.TurnReceived, received, { id: messageId, userId, occurredAt: at, correlationId: messageId })]);
    const completed = orchestrator.TurnCompleted.fromPartial({ messageId, conversationId, assistantMessageId, assistantText: `re: ${text}`, source: 'chat', userText: text, outcome: 'draft' });
    await append('orchestrator', userId, [
      draft(Events.TurnCompleted, completed, { id: randomUUID(), userId, occurredAt: new Date(at.getTime() + 2_000), correlationId: messageId }),
    ]);
    await visible(userId, messageId, true);
    return { messageId, assistantMessageId };
  }

  /** Waits for the turns projection to hold the row (completed, and received for a chat turn). */
  async function visible(userId: string, messageId: string, both = false): Promise<void> {
    const db = hearth.contexts.get('ingress')!.db as Kysely<IngressDb>;
    await waitFor(
      async () => {
        const r = await db.selectFrom('turns').select(['completed_at', 'received_at']).where('message_id', '=', messageId).where('user_id', '=', userId).executeTakeFirst();
        return r?.completed_at && (!both || r.received_at) ? true : undefined;
      },
      { what: `turn ${messageId} to be projected` },
    );
  }

  const lastOnChain = (userId: string): Promise<StoredEvent | null> => bus.lastOnSubject('ingress', userId);

  describe('POST /v1/me/app-opens', () => {
    it('appends an AppOpened with a fresh app_open_id and answers 202', async () => {
      const { userId, token } = await newUser();

      const r = await call('POST', '/v1/me/app-opens', { token, body: {} });

      expect(r.status).toBe(202);
      expect(r.body).toEqual({ app_open_id: expect.any(String), opened_notification_id: null, opened_at: expect.stringMatching(ISO) });
      expect(Date.parse(r.body.opened_at)).toBeLessThanOrEqual(hearth.clock.now().getTime());
      expect(r.body.app_open_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      const last = await lastOnChain(userId);
      expect(last).toMatchObject({ type: Events.AppOpened.name, id: appOpenEventId(userId, r.body.app_open_id), userId, service: 'ingress' });
      expect(last!.occurredAt.toISOString()).toBe(r.body.opened_at);
      expect(Events.AppOpened.decode(last!.payload)).toEqual({ appOpenId: r.body.app_open_id, openedNotificationId: '' });
    });

    it('takes no body at all as an open no notification caused; each open is its own event', async () => {
      const { userId, token } = await newUser();

      const first = await call('POST', '/v1/me/app-opens', { token });
      const second = await call('POST', '/v1/me/app-opens', { token });

      expect([first.status, second.status]).toEqual([202, 202]);
      expect(first.body.app_open_id).not.toBe(second.body.app_open_id);
      const opens: string[] = [];
      for await (const e of bus.read('ingress', { key: userId })) if (e.type === Events.AppOpened.name) opens.push(Events.AppOpened.decode(e.payload).appOpenId);
      expect(opens).toEqual([first.body.app_open_id, second.body.app_open_id]);
    });

    it("names one of the caller's own proactive messages (any case), stored lower-cased", async () => {
      const { userId, token } = await newUser();
      const { notificationId } = await proactive(userId, randomUUID(), 'hey, how did the interview go?', new Date(hearth.clock.now().getTime() - HOUR_MS));

      const r = await call('POST', '/v1/me/app-opens', { token, body: { opened_notification_id: notificationId.toUpperCase() } });

      expect(r.status).toBe(202);
      expect(r.body).toMatchObject({ opened_notification_id: notificationId });
      const last = await lastOnChain(userId);
      expect(Events.AppOpened.decode(last!.payload)).toEqual({ appOpenId: r.body.app_open_id, openedNotificationId: notificationId });
    });

    it('refuses a malformed, invalid or too large body and appends nothing', async () => {
      const { userId, token } = await newUser();
      const before = await lastOnChain(userId);

      const malformed = await call('POST', '/v1/me/app-opens', { token, raw: '{"opened_notification_id": ' });
      const unknown = await call('POST', '/v1/me/app-opens', { token, body: { opened_notification_id: randomUUID(), source: 'push' } });
      const notUuid = await call('POST', '/v1/me/app-opens', { token, body: { opened_notification_id: 'push-123' } });
      const isNull = await call('POST', '/v1/me/app-opens', { token, body: { opened_notification_id: null } });
      const tooLarge = await call('POST', '/v1/me/app-opens', { token, body: { opened_notification_id: 'x'.repeat(70_000) } });

      expect(malformed).toMatchObject({ status: 400, body: { error: { code: 'BAD_REQUEST' } } });
      expect(unknown).toMatchObject({ status: 422, body: { error: { code: 'INVALID_FIELDS' } } });
      expect(notUuid).toMatchObject({ status: 422, body: { error: { code: 'INVALID_FIELDS', details: { fields: [{ field: 'opened_notification_id', message: 'must be a uuid' }] } } } });
      expect(isNull.status).toBe(422);
      expect(tooLarge).toMatchObject({ status: 413, body: { error: { code: 'PAYLOAD_TOO_LARGE' } } });
      expect((await lastOnChain(userId))?.seq).toBe(before?.seq);
    });

    it('answers 404 USER_NOT_FOUND before POST /v1/me, and 401 without a token, appending nothing', async () => {
      const userId = randomUUID();
      const { token } = await devToken(userId);

      expect(await call('POST', '/v1/me/app-opens', { token, body: {} })).toMatchObject({ status: 404, body: { error: { code: 'USER_NOT_FOUND' } } });
      expect(await call('POST', '/v1/me/app-opens', { body: {} })).toMatchObject({ status: 401, body: { error: { code: 'UNAUTHENTICATED' } } });
      expect(await lastOnChain(userId)).toBeNull();
    });

    it("answers 404 NOTIFICATION_NOT_FOUND for an unknown id, another user's notification and a chat reply, appending nothing", async () => {
      const me = await newUser();
      const other = await newUser();
      const theirs = await proactive(other.userId, randomUUID(), 'long time no see!', new Date(hearth.clock.now().getTime() - HOUR_MS));
      const reply = await chat(me.userId, randomUUID(), 'hello', new Date(hearth.clock.now().getTime() - 2 * HOUR_MS));
      const before = await lastOnChain(me.userId);

      for (const id of [randomUUID(), theirs.notificationId, theirs.retentionId, reply.assistantMessageId]) {
        const r = await call('POST', '/v1/me/app-opens', { token: me.token, body: { opened_notification_id: id } });
        expect(r).toEqual({ status: 404, body: { error: { code: 'NOTIFICATION_NOT_FOUND', message: 'no such notification' } } });
      }
      expect((await lastOnChain(me.userId))?.seq).toBe(before?.seq);
      // The owner still can.
      expect((await call('POST', '/v1/me/app-opens', { token: other.token, body: { opened_notification_id: theirs.notificationId } })).status).toBe(202);
    });

    it('shows the app open in the admin timeline', async () => {
      const { userId, token } = await newUser();
      const r = await call('POST', '/v1/me/app-opens', { token, body: {} });

      const timeline = await call('GET', `/v1/admin/users/${userId}/timeline`, { token: admin });

      expect(timeline.status).toBe(200);
      expect(timeline.body.events).toContainEqual(
        expect.objectContaining({ type: Events.AppOpened.name, event_id: appOpenEventId(userId, r.body.app_open_id), service: 'ingress', payload: { appOpenId: r.body.app_open_id, openedNotificationId: '' } }),
      );
    });
  });

  describe('a proactive message in the history', () => {
    it('is one assistant message with source retention, in time order between chat turns', async () => {
      const { userId, token } = await newUser();
      const conversation = randomUUID();
      const now = hearth.clock.now().getTime();
      const first = await chat(userId, conversation, 'I have a job interview on friday', new Date(now - 3 * HOUR_MS));
      const nudge = await proactive(userId, conversation, 'how did the interview go?', new Date(now - 2 * HOUR_MS));
      const second = await chat(userId, conversation, 'it went great!', new Date(now - HOUR_MS));

      const r = await call('GET', `/v1/conversations/${conversation}/messages`, { token });

      expect(r.status).toBe(200);
      expect(r.body.messages.map((m: { message_id: string; role: string; source: string }) => [m.message_id, m.role, m.source])).toEqual([
        [first.messageId, 'user', 'chat'],
        [first.assistantMessageId, 'assistant', 'chat'],
        [nudge.notificationId, 'assistant', 'retention'],
        [second.messageId, 'user', 'chat'],
        [second.assistantMessageId, 'assistant', 'chat'],
      ]);
      expect(r.body.messages[2]).toEqual({
        message_id: nudge.notificationId,
        role: 'assistant',
        source: 'retention',
        text: 'how did the interview go?',
        created_at: new Date(now - 2 * HOUR_MS).toISOString(),
        surfaced_memory_ids: [],
      });
      expect(r.body.messages.filter((m: { text: string }) => m.text === '')).toEqual([]);
    });

    it('counts as one turn in a page, and its id pages like a user message id', async () => {
      const { userId, token } = await newUser();
      const conversation = randomUUID();
      const now = hearth.clock.now().getTime();
      const first = await chat(userId, conversation, 'good morning', new Date(now - 3 * HOUR_MS));
      const nudge = await proactive(userId, conversation, 'hope your day is going well', new Date(now - 2 * HOUR_MS));

      const newest = await call('GET', `/v1/conversations/${conversation}/messages?limit=1`, { token });
      const older = await call('GET', `/v1/conversations/${conversation}/messages?before=${nudge.notificationId}`, { token });

      expect(newest.body.messages.map((m: { message_id: string }) => m.message_id)).toEqual([nudge.notificationId]);
      expect(older.status).toBe(200);
      expect(older.body.messages.map((m: { message_id: string }) => m.message_id)).toEqual([first.messageId, first.assistantMessageId]);
      // 36 characters of dashes look like an id to a loose pattern: a clear 422, not a database error.
      const dashes = await call('GET', `/v1/conversations/${conversation}/messages?before=${'-'.repeat(36)}`, { token });
      expect(dashes.status).toBe(422);
    });

    it("makes the conversation its user's: another user gets 403, and its retention_id is no message_id to reuse", async () => {
      const { userId, token } = await newUser();
      const other = await newUser();
      const conversation = randomUUID();
      const nudge = await proactive(userId, conversation, 'thinking of you!', new Date(hearth.clock.now().getTime() - HOUR_MS));

      const read = await call('GET', `/v1/conversations/${conversation}/messages`, { token: other.token });
      const reuse = await call('POST', `/v1/conversations/${conversation}/messages`, { token, body: { message_id: nudge.retentionId, text: 'hi' } });

      expect(read).toMatchObject({ status: 403, body: { error: { code: 'FORBIDDEN' } } });
      expect(reuse).toMatchObject({ status: 409, body: { error: { code: 'MESSAGE_ID_CONFLICT' } } });
    });

    it('has a turn trail, found by its retention_id or its notification id', async () => {
      const { userId } = await newUser();
      const conversation = randomUUID();
      const nudge = await proactive(userId, conversation, 'any plans for the weekend?', new Date(hearth.clock.now().getTime() - HOUR_MS));

      const byRetention = await call('GET', `/v1/admin/turns/${nudge.retentionId}`, { token: admin });
      const byNotification = await call('GET', `/v1/admin/turns/${nudge.notificationId}`, { token: admin });

      expect(byRetention.status).toBe(200);
      expect(byRetention.body).toMatchObject({ message_id: nudge.retentionId, user_id: userId, conversation_id: conversation, packet: null, outcome: 'draft' });
      expect(byRetention.body.events.map((e: { type: string }) => e.type)).toEqual([Events.TurnCompleted.name]);
      expect(byNotification).toEqual(byRetention);
    });

    it('projects the same rows on a replay of the streams', async () => {
      const { userId } = await newUser();
      const conversation = randomUUID();
      const now = hearth.clock.now().getTime();
      await chat(userId, conversation, 'see you', new Date(now - 3 * HOUR_MS));
      await proactive(userId, conversation, 'hey there!', new Date(now - 2 * HOUR_MS));
      const ctx = hearth.contexts.get('ingress')!;

      const report = await replayProjection({
        bus: hearth.bus,
        database: hearth.database,
        service: 'ingress',
        schema: ctx.schema,
        projection: turnsProjection,
        migrations: service.migrations,
      });

      expect(report.tables).toEqual([expect.objectContaining({ table: 'turns', onlyLive: 0, onlyReplay: 0 })]);
      expect(report.equal).toBe(true);
    });
  });

  describe('GET /v1/admin/users/{user_id}/retention', () => {
    it("answers the retention service's state of the user", async () => {
      const { userId } = await newUser();
      const retentionId = randomUUID();
      const notificationId = randomUUID();
      const conversationId = randomUUID();
      answerRetention = (asked) =>
        Promise.resolve(
          retention.GetRetentionResponse.fromPartial({
            found: asked === userId,
            evaluatedThrough: new Date('2026-11-23T12:00:00Z'),
            backoffMultiplier: 2,
            messages: [
              {
                retentionId,
                notificationId,
                conversationId,
                plannedAt: new Date('2026-11-23T11:00:00Z'),
                status: 'delivered',
                deliveredAt: new Date('2026-11-23T11:00:01Z'),
                outcome: 'ignored',
                resolvedAt: new Date('2026-11-24T11:00:01Z'),
              },
            ],
          }),
        );

      const r = await call('GET', `/v1/admin/users/${userId.toUpperCase()}/retention`, { token: admin });

      expect(r).toEqual({
        status: 200,
        body: {
          user_id: userId,
          evaluated_through: '2026-11-23T12:00:00.000Z',
          backoff_multiplier: 2,
          messages: [
            {
              retention_id: retentionId,
              notification_id: notificationId,
              conversation_id: conversationId,
              planned_at: '2026-11-23T11:00:00.000Z',
              status: 'delivered',
              delivered_at: '2026-11-23T11:00:01.000Z',
              outcome: 'ignored',
              acknowledged_via: null,
              resolved_at: '2026-11-24T11:00:01.000Z',
              declined_reason: null,
            },
          ],
        },
      });
      expect(asked.at(-1)).toBe(userId);
    });

    it('answers a user retention has not evaluated yet with the initial state', async () => {
      const { userId } = await newUser();

      expect(await call('GET', `/v1/admin/users/${userId}/retention`, { token: admin })).toEqual({
        status: 200,
        body: { user_id: userId, evaluated_through: null, backoff_multiplier: 1, messages: [] },
      });
    });

    it('is for admins only: 403 for a user, 401 without a token', async () => {
      const { userId, token } = await newUser();

      expect(await call('GET', `/v1/admin/users/${userId}/retention`, { token })).toMatchObject({ status: 403, body: { error: { code: 'FORBIDDEN' } } });
      expect(await call('GET', `/v1/admin/users/${userId}/retention`)).toMatchObject({ status: 401, body: { error: { code: 'UNAUTHENTICATED' } } });
    });

    it('answers 404 for an unknown user and 422 for a user id that is no uuid, without asking retention', async () => {
      const count = asked.length;

      expect(await call('GET', `/v1/admin/users/${randomUUID()}/retention`, { token: admin })).toMatchObject({ status: 404, body: { error: { code: 'USER_NOT_FOUND' } } });
      expect(await call('GET', '/v1/admin/users/not-a-uuid/retention', { token: admin })).toMatchObject({
        status: 422,
        body: { error: { code: 'INVALID_FIELDS', details: { fields: [{ field: 'user_id', message: 'must be a uuid' }] } } },
      });
      expect(asked.length).toBe(count);
    });

    it('answers 503 UNAVAILABLE when the retention query fails', async () => {
      const { userId } = await newUser();
      answerRetention = () => Promise.reject(new Error('retention database is down'));

      const r = await call('GET', `/v1/admin/users/${userId}/retention`, { token: admin });

      expect(r).toEqual({ status: 503, body: { error: { code: 'UNAVAILABLE', message: 'retention is not available right now; retry shortly' } } });
    });
  });
});
