// What the friend knows, through the HTTP API against Hearth started as the
// README starts it (scripts/start, offline provider, Postgres): facts supersede,
// preference stances flip with lowered confidence, "forget that" forgets what the
// last reply used and it never comes back, DELETE forgets for its owner only,
// and "don't bring this topic up again" reaches the user's controls
// (turn-pipeline §12–§13, API.md).
import { randomUUID } from 'node:crypto';
import { waitFor } from '@hearth/testing';
import { HearthClient, memoriesWhen as memoriesOf, onboard, sayOk, settled, type Reply } from './support/client.js';
import { startHearth, type RunningHearth } from './support/process.js';

interface MemoryBody {
  memory_id: string;
  type: string;
  memory_key: string;
  memory_value: string;
  confidence: number;
  status: string;
  superseded_by?: string | null;
  source_message_ids: string[];
  created_at: string;
  occurred_on: string | null;
  occurred_precision: string | null;
}

describe('memory through the HTTP API (scripts/start, Postgres)', () => {
  let hearth: RunningHearth;
  let anon: HearthClient;

  beforeAll(async () => {
    hearth = await startHearth({ mode: 'all', database: 'postgres' });
    anon = new HearthClient(hearth.url);
  });

  afterAll(async () => {
    expect(await hearth?.stop()).toEqual([0]);
  });

  const say = sayOk;

  const memoriesWhen = (me: HearthClient, done: (ms: MemoryBody[]) => boolean, all = true) => memoriesOf<MemoryBody>(me, done, all);

  /**
   * Waits until memory has written this reply's turn back: its TurnMemoryWritten,
   * appended with whatever the turn records, is in the turn's trail. GET /v1/me/memories
   * reads memory's projection up to the user's last memory event, so what it shows after
   * this includes everything the turn wrote.
   */
  async function writtenBack(me: HearthClient, reply: Reply): Promise<void> {
    const admin = await anon.as({ admin: true });
    const messageId = reply.body.message_id as string;
    await waitFor(
      async () => ((await admin.call('GET', `/v1/admin/turns/${messageId}`)).body.events ?? []).some((e: { type: string }) => e.type === 'hearth.memory.v1.TurnMemoryWritten'),
      { what: `memory to write back the turn ${messageId} of ${me.userId}`, timeoutMs: 10_000 },
    );
  }

  it('"I live in Seoul", then "Actually I live in Busan, not Seoul": one ACTIVE current_city = busan, Seoul SUPERSEDED', async () => {
    // given
    const me = await onboard(anon);
    const conversation = randomUUID();
    await say(me, conversation, 'I live in Seoul');
    await memoriesWhen(me, (ms) => ms.some((m) => m.memory_value === 'seoul'));

    // when
    await say(me, conversation, 'Actually I live in Busan, not Seoul');
    const all = await memoriesWhen(me, (ms) => ms.some((m) => m.memory_value === 'busan'));
    const active = (await me.call('GET', '/v1/me/memories')).body.memories as MemoryBody[];

    // then
    const cities = active.filter((m) => m.memory_key === 'fact:current_city');
    expect(cities).toEqual([expect.objectContaining({ memory_value: 'busan', status: 'ACTIVE', type: 'FACT', occurred_on: null, occurred_precision: null })]);
    expect(cities[0]).not.toHaveProperty('superseded_by');
    const seoul = all.find((m) => m.memory_value === 'seoul');
    expect(seoul).toMatchObject({ status: 'SUPERSEDED', superseded_by: cities[0]!.memory_id, memory_key: 'fact:current_city' });
  });

  it('"… yesterday": the event is dated the day before the message, and filed under that month', async () => {
    // given
    const me = await onboard(anon);

    // when
    await say(me, randomUUID(), 'I went to a book club meeting yesterday');
    const [event] = await memoriesWhen(me, (ms) => ms.some((m) => m.type === 'RELATIONSHIP_EVENT'), false);

    // then: the day before the turn (UTC), whatever the clock says today
    const told = new Date(event!.created_at);
    const yesterday = new Date(Date.UTC(told.getUTCFullYear(), told.getUTCMonth(), told.getUTCDate() - 1)).toISOString().slice(0, 10);
    expect(event).toMatchObject({ occurred_on: yesterday, occurred_precision: 'day' });
    expect(event!.memory_key).toMatch(new RegExp(`^event:[a-z_]+:${yesterday.slice(0, 7).replace('-', '_')}:`));
  });

  it('"I love sushi", then "I hate sushi": the stance flips with confidence ≤ 0.55', async () => {
    // given
    const me = await onboard(anon);
    const conversation = randomUUID();
    await say(me, conversation, 'I love sushi');
    await memoriesWhen(me, (ms) => ms.some((m) => m.memory_value === 'like|sushi'));

    // when
    await say(me, conversation, 'I hate sushi');
    const all = await memoriesWhen(me, (ms) => ms.some((m) => m.memory_value === 'dislike|sushi'));

    // then
    const active = all.filter((m) => m.status === 'ACTIVE' && m.memory_key === 'pref:food:sushi');
    expect(active).toHaveLength(1);
    expect(active[0]!.memory_value).toBe('dislike|sushi');
    expect(active[0]!.confidence).toBeLessThanOrEqual(0.55);
    expect(all.find((m) => m.memory_value === 'like|sushi')?.status).toBe('SUPERSEDED');
  });

  it('a reply that surfaced a memory, then "forget that": INVALID, and never surfaced again', async () => {
    // given: a memory the next reply uses
    const me = await onboard(anon);
    const conversation = randomUUID();
    await say(me, conversation, 'I love sushi');
    const [sushi] = await memoriesWhen(me, (ms) => ms.some((m) => m.memory_value === 'like|sushi'));
    const recall = await say(me, conversation, 'Do you remember which food I like?');
    expect(recall.body.assistant.surfaced_memory_ids).toEqual([sushi!.memory_id]);

    // when
    const forget = await say(me, conversation, 'Forget that');
    const all = await memoriesWhen(me, (ms) => ms.some((m) => m.status === 'INVALID'));
    const again = await say(me, conversation, 'Do you remember which food I like?');

    // then
    expect(forget.body.assistant.surfaced_memory_ids).toEqual([]);
    expect(all.find((m) => m.memory_id === sushi!.memory_id)?.status).toBe('INVALID');
    expect((await me.call('GET', '/v1/me/memories')).body.memories).toEqual([]);
    expect(again.body.assistant.surfaced_memory_ids).toEqual([]);
    expect(again.body.assistant.text.toLowerCase()).not.toContain('sushi');
    // And saying it again is not stored: its key is suppressed (§12.4).
    await writtenBack(me, await say(me, conversation, 'I love sushi'));
    expect((await me.call('GET', '/v1/me/memories')).body.memories).toEqual([]);
  });

  it('"that\'s not true" after a reply that used nothing asks which part, and forgets nothing', async () => {
    // given
    const me = await onboard(anon);
    const conversation = randomUUID();
    await say(me, conversation, 'I love jazz music');
    await memoriesWhen(me, (ms) => ms.length === 1);
    await say(me, conversation, 'what a day');

    // when
    const r = await say(me, conversation, "That's not true");

    // then
    expect(r.body.assistant.text).toMatch(/which part is wrong\?/i);
    await writtenBack(me, r);
    expect(((await me.call('GET', '/v1/me/memories')).body.memories as MemoryBody[]).map((m) => m.status)).toEqual(['ACTIVE']);
  });

  it('DELETE /v1/me/memories/{id} forgets for the owner only', async () => {
    // given
    const me = await onboard(anon);
    const stranger = await onboard(anon);
    await say(me, randomUUID(), 'I work as a nurse');
    const [nurse] = await memoriesWhen(me, (ms) => ms.length > 0, false);

    // when
    const notYours = await stranger.call('DELETE', `/v1/me/memories/${nurse!.memory_id}`);
    const mine = await me.call('DELETE', `/v1/me/memories/${nurse!.memory_id}`);
    const again = await me.call('DELETE', `/v1/me/memories/${nurse!.memory_id}`);
    const bad = await me.call('DELETE', '/v1/me/memories/not-a-uuid');

    // then
    expect(notYours.status).toBe(404);
    expect(notYours.body.error.code).toBe('MEMORY_NOT_FOUND');
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ memory_id: nurse!.memory_id, status: 'INVALID' });
    expect(again.status).toBe(200);
    expect(bad.status).toBe(422);
    expect((await me.call('GET', '/v1/me/memories')).body.memories).toEqual([]);
    expect((await stranger.call('GET', '/v1/me/memories')).body.memories).toEqual([]);
    expect((await me.call('GET', '/v1/me/memories?status=bogus')).status).toBe(422);
    // Key and status stay; the value is gone from every API, the admin's included.
    const all = (await me.call('GET', '/v1/me/memories?status=all')).body.memories as MemoryBody[];
    expect(all.find((m) => m.memory_id === nurse!.memory_id)).toMatchObject({ memory_key: nurse!.memory_key, status: 'INVALID', memory_value: null });
    const admin = await anon.as({ admin: true });
    const events = (await admin.call('GET', `/v1/admin/users/${me.userId}/timeline`)).body.events as { type: string; payload: { memoryId?: string } | null }[];
    const recorded = events.filter((e) => e.type === 'hearth.memory.v1.MemoryRecorded' && e.payload?.memoryId === nurse!.memory_id);
    expect(recorded).toEqual([expect.objectContaining({ payload: expect.objectContaining({ memoryValue: null, valueForgotten: true }) })]);
    expect(JSON.stringify(recorded)).not.toContain(nurse!.memory_value);
  });

  it('"don\'t bring this topic up again" adds the topic to the user\'s suppressed topics', async () => {
    // given
    const me = await onboard(anon, { suppressed_topics: [] });
    const conversation = randomUUID();
    await say(me, conversation, 'My boss yelled at me at work again and my job is exhausting');

    // when
    const r = await say(me, conversation, "Don't bring this topic up again");
    const controls = await settled(
      () => me.call('GET', '/v1/me/controls'),
      (x) => (x.body.suppressed_topics as string[]).includes('WORK_SCHOOL'),
    );

    // then
    expect(r.body.assistant.text).toMatch(/won't bring that up again/);
    expect(controls.body).toMatchObject({ proactive_messages_enabled: true, mute_until: null });
    expect(controls.body.suppressed_topics).toContain('WORK_SCHOOL');
  });

  it('PATCH /v1/me/controls changes the controls, and rejects what is not a TopicID', async () => {
    // given
    const me = await onboard(anon);

    // when
    const ok = await me.call('PATCH', '/v1/me/controls', { proactive_messages_enabled: false, suppressed_topics: ['RELIGION'] });
    const bad = await me.call('PATCH', '/v1/me/controls', { suppressed_topics: ['my ex'] });
    const after = await me.call('GET', '/v1/me/controls');

    // then
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ proactive_messages_enabled: false, mute_until: null, suppressed_topics: ['RELIGION'] });
    expect(bad.status).toBe(422);
    expect(after.body).toEqual(ok.body);
  });
});
