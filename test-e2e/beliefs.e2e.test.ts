// The belief graph through the HTTP API on the virtual clock (issue 16's "done
// when"), against Hearth started as the README starts it (scripts/start,
// Postgres): what users say about themselves becomes a graph with evidence and
// conflicts; a harmful belief said again and again over more than a week gets
// one gentle question per conversation, never while the lock holds; the
// companion's own graph grows from its replies, and with an LLM a draft that
// contradicts a core companion belief is rewritten.
import { randomUUID } from 'node:crypto';
import { PATTERN_QUESTIONS } from '@hearth/beliefs';
import { startLlmStub, type LlmStub, type StubReply } from '@hearth/llm';
import { HearthClient, onboard, sayOk, settled, type Reply } from './support/client.js';
import { startHearth, type RunningHearth } from './support/process.js';

interface NodeBody {
  belief_id: string;
  holder: string;
  canonical_text: string;
  polarity: string;
  confidence: number;
  occurrence_count: number;
  source_message_ids: string[];
}

interface GraphBody {
  nodes: NodeBody[];
  links: unknown[];
  conflicts: { conflict_id: string; belief_ids: string[]; conflict_type: string; source_message_ids: string[] }[];
  challenges: { challenge_id: string; belief_id: string; style: string; message_id: string }[];
}

const DAY_S = 86_400;
const HARMFUL = 'My family disrespects me for not working with my hands.';

/**
 * The user's graph once `done` holds of it (the belief graph reads turns moments after
 * the reply), read with a fresh admin token: dev tokens expire on the virtual clock.
 */
async function graphWhen(anon: HearthClient, userId: string, holder: 'user' | 'companion', done: (g: GraphBody) => boolean): Promise<GraphBody> {
  const admin = await anon.as({ admin: true });
  const r: Reply<GraphBody> = await settled(
    () => admin.call('GET', `/v1/admin/users/${userId}/beliefs?holder=${holder}`),
    (x) => x.status === 200 && done(x.body as GraphBody),
  );
  expect(r.status).toBe(200);
  return r.body;
}

const withText = (g: GraphBody, text: string) => g.nodes.filter((n) => n.canonical_text === text);

describe('the belief graph through the HTTP API on the virtual clock (scripts/start, Postgres)', () => {
  let hearth: RunningHearth;
  let anon: HearthClient;

  beforeAll(async () => {
    hearth = await startHearth({ mode: 'all', database: 'postgres' });
    anon = new HearthClient(hearth.url);
  });

  afterAll(async () => {
    expect(await hearth?.stop()).toEqual([0]);
  });

  it('self-perceptions become nodes with occurrences and source messages; affirm then deny is a contradiction, a near-paraphrase a tension, two momentary states nothing', async () => {
    const me = await onboard(anon);
    const c = randomUUID();
    const patient = await sayOk(me, c, "I'm a patient person.");
    const impatient = await sayOk(me, c, "Honestly, I'm not a patient person.");
    await sayOk(me, c, "I'm tired right now.");
    await sayOk(me, c, "I'm not tired right now.");
    const kind = await sayOk(me, c, 'I am a really kind person.');
    const unkind = await sayOk(me, c, 'I am not kind.');

    const g = await graphWhen(anon, me.userId!, 'user', (x) => x.conflicts.length >= 2 && withText(x, 'i feel tired').length >= 2);

    const [yes] = withText(g, 'i am a patient person').filter((n) => n.polarity === 'affirm');
    const [no] = withText(g, 'i am a patient person').filter((n) => n.polarity === 'deny');
    expect(yes).toMatchObject({ holder: 'user', occurrence_count: 1, source_message_ids: [patient.body.message_id] });
    expect(no).toMatchObject({ holder: 'user', occurrence_count: 1, source_message_ids: [impatient.body.message_id] });
    const contradiction = g.conflicts.find((x) => x.conflict_type === 'contradiction')!;
    expect(new Set(contradiction.belief_ids)).toEqual(new Set([yes!.belief_id, no!.belief_id]));
    expect(contradiction.source_message_ids).toEqual(expect.arrayContaining([patient.body.message_id, impatient.body.message_id]));

    const tension = g.conflicts.find((x) => x.conflict_type === 'tension')!;
    expect(tension.source_message_ids).toEqual(expect.arrayContaining([kind.body.message_id, unkind.body.message_id]));

    // The turn's trail lists what the graph made of it.
    const admin = await anon.as({ admin: true });
    const trail = (await admin.call('GET', `/v1/admin/turns/${impatient.body.message_id}`)).body;
    expect(trail.writebacks.map((w: { type: string }) => w.type)).toContain('hearth.belief.v1.BeliefsExtracted');

    // "right now" twice, once denied: two nodes, no edge between them.
    const tired = withText(g, 'i feel tired').map((n) => n.belief_id);
    expect(tired).toHaveLength(2);
    expect(g.conflicts.filter((x) => x.belief_ids.some((id) => tired.includes(id)))).toEqual([]);
    expect(g.conflicts).toHaveLength(2);
  });

  it('a harmful belief repeated over more than 7 days gets exactly one gentle question in a conversation, and none while the lock holds', async () => {
    let me = await onboard(anon);
    const first = randomUUID();
    await sayOk(me, first, HARMFUL);
    expect((await anon.advanceClock(4 * DAY_S)).status).toBe(200);
    // Dev tokens expire on the virtual clock: the same user, a fresh token.
    me = await anon.as({ userId: me.userId! });
    await sayOk(me, first, HARMFUL);
    expect((await anon.advanceClock(4 * DAY_S)).status).toBe(200);
    me = await anon.as({ userId: me.userId! });
    await sayOk(me, first, `Anyway. ${HARMFUL}`);
    const held = await graphWhen(anon, me.userId!, 'user', (x) => x.nodes.some((n) => n.occurrence_count >= 3));
    const belief = held.nodes.find((n) => n.occurrence_count >= 3)!;
    expect(belief.canonical_text).toBe('my family disrespects me for not working with my hands');

    // The lock: shame in this conversation, then the belief again — no question, now or on the next turn.
    const locked = randomUUID();
    const ashamed = await sayOk(me, locked, "I'm so ashamed of myself today.");
    const lockedAfter = await sayOk(me, locked, 'I keep going over it in my head.');

    // An open conversation: one question, woven into the reply, and never a second one there.
    const open = randomUUID();
    const asked = await sayOk(me, open, 'I keep going over it in my head.');
    const next = await sayOk(me, open, 'I went for a walk after work.');
    const again = await sayOk(me, open, 'It still bothers me a lot.');

    // The persona's punctuation quirks may replace a comma ("true~ or"): compared by their words.
    const words = (t: string) => t.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
    const questions = Object.values(PATTERN_QUESTIONS).map(words);
    const carries = (r: Reply) => questions.some((q) => words(String(r.body.assistant.text)).includes(q));
    const text: string = asked.body.assistant.text;
    expect({ text, carries: carries(asked) }).toEqual({ text, carries: true });
    expect(text).toMatch(/\?\W*$/u);
    expect(text).not.toMatch(/\b(you're wrong|actually|you should)\b/i);
    for (const r of [ashamed, lockedAfter, next, again]) expect(carries(r)).toBe(false);

    const g = await graphWhen(anon, me.userId!, 'user', (x) => x.challenges.some((ch) => ch.message_id === asked.body.message_id));
    const inOpen = g.challenges.filter((ch) => [asked, next, again].some((r) => r.body.message_id === ch.message_id));
    expect(inOpen).toEqual([expect.objectContaining({ belief_id: belief.belief_id, message_id: asked.body.message_id, style: expect.stringMatching(/^(gentle|curious|reflective)$/) })]);
    expect(g.challenges.filter((ch) => [ashamed, lockedAfter].some((r) => r.body.message_id === ch.message_id))).toEqual([]);
    // The first conversation may have had its one question on the third statement (the graph can read
    // it before the orchestrator asks); never more than one there.
    expect(g.challenges.length).toBeLessThanOrEqual(2);
  });

  it("the companion's graph starts from its persona and grows from its own replies", async () => {
    const me = await onboard(anon);
    const seeded = await graphWhen(anon, me.userId!, 'companion', (x) => x.nodes.length >= 3);
    const seedIds = new Set(seeded.nodes.flatMap((n) => n.source_message_ids));
    expect(seeded.nodes.every((n) => n.holder === 'companion')).toBe(true);

    const c = randomUUID();
    const replies = [];
    for (const q of ['what about you? what do you like?', 'how are you doing lately?', 'and what kind of friend are you?']) replies.push(await sayOk(me, c, q));
    const assistantIds = replies.map((r) => r.body.assistant.message_id as string);

    const g = await graphWhen(anon, me.userId!, 'companion', (x) => x.nodes.some((n) => n.source_message_ids.some((id) => assistantIds.includes(id))));
    const grown = g.nodes.filter((n) => n.source_message_ids.some((id) => !seedIds.has(id)));
    expect(grown.length).toBeGreaterThan(0);
    // What it said of itself is what its replies said, in the reply's own words.
    const said = replies.map((r) => String(r.body.assistant.text).toLowerCase().replace(/[’']/g, "'").replace(/\bi'm\b/g, 'i am')).join(' ');
    for (const n of grown) {
      expect(n.source_message_ids.some((id) => assistantIds.includes(id))).toBe(true);
      const content = n.canonical_text.split(' ').filter((w) => w.length > 3);
      expect(content.some((w) => said.includes(w))).toBe(true);
    }
    // The same belief said again is one node with more evidence, not a second node.
    expect(new Set(g.nodes.map((n) => `${n.canonical_text}|${n.polarity}`)).size).toBe(g.nodes.length);
  });
});

describe('a friend consistent with itself, with an LLM configured (a local OpenAI-compatible stub)', () => {
  let hearth: RunningHearth;
  let stub: LlmStub;
  let anon: HearthClient;
  const contradicted = new Set<string>();
  // The core belief the last contradicting draft denied.
  let firstCore = '';

  /** The belief statements of the atomizer's request, in affirmative first-person form. */
  function atomize(user: string): StubReply {
    const atoms = [...user.matchAll(/^(\d+)\. (.+)$/gm)].flatMap(([, idx, text]) => {
      const t = text!.toLowerCase().replace(/[.!?]+$/, '').replace(/\bi'm\b/g, 'i am').replace(/^i (love|enjoy) /, 'i like ');
      return /^i /.test(t) ? [{ atom_text: t, belief_type: 'TRAIT', polarity: 'affirm', confidence: 0.9, source_idx: Number(idx) }] : [];
    });
    return { content: JSON.stringify({ atoms }) };
  }

  /**
   * A model that contradicts the first core belief in its first draft for each
   * prompt that lists one, and otherwise follows the persona's length target.
   */
  function model(body: { messages: { role: string; content: string }[] }): StubReply {
    const system = body.messages[0]!.content;
    const last = body.messages.at(-1)!.content;
    if (/atomic first-person self-beliefs/.test(system)) return atomize(last);
    if (/extract durable memories/i.test(system)) return { content: '{"memories": []}' };
    if (/^\{/.test(system.trim()) || !/Length:/.test(system)) return { content: '{}' };
    const core = /Stay consistent with what you have said about yourself:\n- "i ([^"]+)"/.exec(system);
    const key = body.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
    if (core && !/Rewrite your reply/.test(last) && !contradicted.has(key)) {
      contradicted.add(key);
      firstCore = `i ${core[1]!}`;
      const denied = core[1]!.startsWith('am ') ? `I am not ${core[1]!.slice(3)}` : `I don't ${core[1]!}`;
      return { content: JSON.stringify({ text: `Honestly, ${denied} at all. Tell me more about your day.`, surfaced_memory_ids: [] }) };
    }
    const length = /Length: (\d+)–(\d+) sentences/.exec(system);
    const n = length ? Number(length[1]) : 1;
    const text = Array.from({ length: n }, () => 'That sounds like a calm and steady day for you.').join(' ');
    return { content: JSON.stringify({ text, surfaced_memory_ids: [] }) };
  }

  beforeAll(async () => {
    stub = await startLlmStub(({ body }) => model(body as { messages: { role: string; content: string }[] }));
    hearth = await startHearth({ mode: 'all', database: 'postgres', env: { LLM_BASE_URL: stub.url, LLM_CHAT_MODEL: 'stub-model', LLM_MAX_RETRIES: '0' } });
    anon = new HearthClient(hearth.url);
  });

  afterAll(async () => {
    expect(await hearth?.stop()).toEqual([0]);
    await stub?.close();
  });

  it('a draft that contradicts a core companion belief is rewritten, and the verdict is on the record', async () => {
    const me = await onboard(anon);
    await graphWhen(anon, me.userId!, 'companion', (x) => x.nodes.length >= 3);

    const conversation = randomUUID();
    // The first message activates the user (an onboarding turn); the friend chat starts after it.
    await sayOk(me, conversation, 'hi there');
    const reply = await sayOk(me, conversation, 'hello, it was a calm day at work');
    const admin = await anon.as({ admin: true });
    const trail = (await admin.call('GET', `/v1/admin/turns/${reply.body.message_id}`)).body;
    const verdicts = (trail.gates as { gate: string; pass: boolean; passNumber?: number; detail: string }[]).filter((g) => g.gate === 'self_consistency');
    expect(firstCore).not.toBe('');
    expect(verdicts[0]).toMatchObject({ pass: false, detail: expect.stringContaining(firstCore) });
    expect(verdicts.at(-1)).toMatchObject({ pass: true });
    expect(['rewrite', 'fallback']).toContain(trail.outcome);
    expect(String(reply.body.assistant.text)).not.toMatch(/^Honestly, I (am not|don't)/);
  });
});
