// GET /v1/me/export and the admin access trail through the HTTP API, against
// Hearth started as the README starts it (scripts/start, offline provider,
// Postgres): the export holds the caller's profile with answers, their turns,
// memories of every status, their beliefs and uncertainties and the admin reads of their data, and nothing of
// another user's; every admin read of a user's data shows in their timeline.
import { randomUUID } from 'node:crypto';
import { ANSWERS, HearthClient, onboard, sayOk, settled } from './support/client.js';
import { startHearth, type RunningHearth } from './support/process.js';

const ADMIN_ACCESSED = 'hearth.ingress.v1.AdminAccessed';

describe('the export and the admin access trail (scripts/start, Postgres)', () => {
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

  /** GET /v1/me/export with its raw text and headers (the body is an attachment). */
  async function exportOf(me: HearthClient): Promise<{ status: number; text: string; headers: Headers; doc: any }> {
    const res = await fetch(`${hearth.url}/v1/me/export`, { headers: { authorization: `Bearer ${me.token}` }, signal: AbortSignal.timeout(40_000) });
    const text = await res.text();
    return { status: res.status, text, headers: res.headers, doc: JSON.parse(text) };
  }

  const say = sayOk;

  it("exports the caller's profile, turns, memories of every status and admin reads, and nothing of another user's", async () => {
    // given: a user who chatted, whose city memory was superseded, and whose data an admin read
    const me = await onboard(anon);
    const conversation = randomUUID();
    const first = await say(me, conversation, 'I live in Seoul');
    await settled(
      () => me.call('GET', '/v1/me/memories?status=all'),
      (r) => r.body.memories?.some((m: any) => m.memory_value === 'seoul'),
    );
    await say(me, conversation, 'Actually I live in Busan, not Seoul');
    await settled(
      () => me.call('GET', '/v1/me/memories?status=all'),
      (r) => r.body.memories?.some((m: any) => m.memory_value === 'busan'),
    );
    const other = await onboard(anon, { preferred_name: 'Jun' });
    const otherConversation = randomUUID();
    const secret = `my locker code is ${randomUUID()}`;
    await say(other, otherConversation, secret);
    expect((await admin.call('GET', `/v1/admin/users/${me.userId}/timeline`)).status).toBe(200);
    expect((await admin.call('GET', `/v1/admin/turns/${first.body.message_id}`)).status).toBe(200);
    expect((await admin.call('GET', `/v1/admin/users/${other.userId}/timeline`)).status).toBe(200);

    // when
    const { status, text, headers, doc } = await exportOf(me);

    // then
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/^application\/json/);
    expect(headers.get('content-disposition')).toMatch(/^attachment; filename=/);
    expect(Object.keys(doc)).toEqual(['exported_at', 'user', 'controls', 'relationship', 'conversations', 'memories', 'beliefs', 'uncertainties', 'trust', 'retention', 'admin_access']);
    expect(doc.user).toMatchObject({ user_id: me.userId, user_state: 'ACTIVE', answers: ANSWERS, persona: expect.objectContaining({ template_id: expect.any(String) }) });
    expect(doc.controls).toEqual({ proactive_messages_enabled: true, mute_until: null, suppressed_topics: ['POLITICS'] });
    expect(doc.relationship).toMatchObject({ relationship_stage: expect.any(String), sessions_count: expect.any(Number) });
    expect(doc.conversations).toHaveLength(1);
    expect(doc.conversations[0].conversation_id).toBe(conversation);
    const messages = doc.conversations[0].messages;
    expect(messages.map((m: any) => [m.role, m.source])).toEqual([
      ['user', 'chat'],
      ['assistant', 'chat'],
      ['user', 'chat'],
      ['assistant', 'chat'],
    ]);
    expect(messages.filter((m: any) => m.role === 'user').map((m: any) => m.text)).toEqual(['I live in Seoul', 'Actually I live in Busan, not Seoul']);
    // The export's messages are the history's.
    expect(messages).toEqual((await me.call('GET', `/v1/conversations/${conversation}/messages`)).body.messages);
    const cities = doc.memories.filter((m: any) => m.memory_key === 'fact:current_city');
    expect(cities.map((m: any) => [m.memory_value, m.status]).sort()).toEqual([
      ['busan', 'ACTIVE'],
      ['seoul', 'SUPERSEDED'],
    ]);
    expect(doc.memories).toEqual((await me.call('GET', '/v1/me/memories?status=all')).body.memories);
    // A memory's reliability is its state (uncertainty-engine.md), never a number.
    for (const m of doc.memories) expect(['reliable', 'uncertain', 'contradicted', 'superseded']).toContain(m.reliability);
    // The user's uncertainties with the tolerance (compared with the admin view below).
    expect(Object.keys(doc.uncertainties)).toEqual(['uncertainties', 'tolerance']);
    expect(doc.uncertainties.tolerance).toEqual(expect.any(Number));
    expect(Object.keys(doc.trust)).toEqual(['actors', 'outcomes', 'feedback']);
    expect(doc.trust.actors.map((a: any) => a.actor).sort()).toEqual(['agent', 'user']);
    expect(doc.retention).toMatchObject({ user_id: me.userId });
    expect(doc.admin_access.map((a: any) => [a.admin_id, a.route, a.resource])).toEqual([
      [admin.userId, 'GET /v1/admin/users/{user_id}/timeline', 'timeline'],
      [admin.userId, 'GET /v1/admin/turns/{message_id}', `turn:${first.body.message_id}`],
    ]);
    // The user's own beliefs, as the admin view shows them (without the links); read after
    // the access trail above, which this read joins.
    const beliefs = await admin.call('GET', `/v1/admin/users/${me.userId}/beliefs?holder=user`);
    expect(beliefs.status).toBe(200);
    const { links: _links, ...own } = beliefs.body;
    expect(doc.beliefs).toEqual(own);
    expect(doc.beliefs.nodes.every((n: any) => n.holder === 'user')).toBe(true);
    // The user's uncertainties and tolerance, as the admin view shows them.
    const uncertainties = await admin.call('GET', `/v1/admin/users/${me.userId}/uncertainties`);
    expect(uncertainties.status).toBe(200);
    expect(doc.uncertainties).toEqual(uncertainties.body);
    // The companion's trust for the user, as the admin view shows it.
    const trust = await admin.call('GET', `/v1/admin/users/${me.userId}/trust`);
    expect(trust.status).toBe(200);
    expect(doc.trust).toEqual(trust.body);
    // Nothing of the other user.
    expect(text).not.toContain(other.userId!);
    expect(text).not.toContain(otherConversation);
    expect(text).not.toContain(secret);
  });

  it("shows every admin read of a user's data in their timeline, readable, and the user's chat goes on", async () => {
    // given
    const me = await onboard(anon);
    const conversation = randomUUID();
    const turn = await say(me, conversation, 'hello there');

    // when: an admin reads the user's timeline, retention state and a turn, then the timeline again
    expect((await admin.call('GET', `/v1/admin/users/${me.userId}/timeline`)).status).toBe(200);
    expect((await admin.call('GET', `/v1/admin/users/${me.userId}/retention`)).status).toBe(200);
    expect((await admin.call('GET', `/v1/admin/turns/${turn.body.message_id}`)).status).toBe(200);
    const timeline = await admin.call('GET', `/v1/admin/users/${me.userId}/timeline`);

    // then: the three reads, each an AdminAccessed on the user's ingress subject
    expect(timeline.status).toBe(200);
    const reads = timeline.body.events.filter((e: any) => e.type === ADMIN_ACCESSED);
    expect(reads.map((e: any) => [e.service, e.erased, e.payload.adminId, e.payload.resource])).toEqual([
      ['ingress', false, admin.userId, 'timeline'],
      ['ingress', false, admin.userId, 'retention'],
      ['ingress', false, admin.userId, `turn:${turn.body.message_id}`],
    ]);
    expect(timeline.body.events.every((e: any) => e.erased === false)).toBe(true);
    // Ingress's projections pass over them: the user's next message and a change of controls still apply.
    expect((await say(me, conversation, 'still here?')).body.assistant.text).toEqual(expect.any(String));
    expect(await me.call('PATCH', '/v1/me/controls', { proactive_messages_enabled: false })).toMatchObject({ status: 200, body: { proactive_messages_enabled: false } });
    // And the user sees the same reads in their export (the last timeline read too).
    const { doc } = await exportOf(me);
    expect(doc.admin_access.map((a: any) => a.resource)).toEqual(['timeline', 'retention', `turn:${turn.body.message_id}`, 'timeline']);
  });

  it('answers 404 to a caller who has no profile', async () => {
    const ghost = await anon.as();
    expect(await ghost.call('GET', '/v1/me/export')).toMatchObject({ status: 404, body: { error: { code: 'USER_NOT_FOUND' } } });
  });
});
