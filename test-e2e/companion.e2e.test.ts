// The companion through the HTTP API on the virtual clock, against Hearth started
// as the README starts it (scripts/start, offline provider, Postgres): the
// relationship follows turn-pipeline §11 to the number, replies stay in their
// persona's §10 bands, and a suppressed topic never comes up unsolicited (§2.8).
import { randomUUID } from 'node:crypto';
import { startLlmStub, type LlmStub, type StubReply } from '@hearth/llm';
import { detectTopics, normalizeUserText } from '@hearth/text';
import { ANSWERS, HearthClient, onboard, sayOk, settled } from './support/client.js';
import { startHearth, type RunningHearth } from './support/process.js';

const MINUTE = 60;
const HOUR = 3600;
const DAY = 24 * HOUR;

// The spec's measures, written out again here so the test does not grade the
// orchestrator with its own code.
function emojiCount(text: string): number {
  return [...text.matchAll(/\p{Extended_Pictographic}/gu)].length;
}

function sentenceBand(text: string): { count: number; avg: number } {
  const sentences = text
    .split(/[.!?…。．！？｡]+/u)
    .map((s) => s.trim())
    .filter((s) => /[\p{L}\p{N}]/u.test(s));
  const words = sentences.map((s) => s.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length);
  return { count: sentences.length, avg: sentences.length ? words.reduce((a, b) => a + b, 0) / sentences.length : 0 };
}

const EMOJI_BAND: Record<string, [number, number]> = { none: [0, 0], light: [0, 2], frequent: [1, 6] };
const SENTENCE_BAND: Record<string, { count: [number, number]; avg: [number, number] }> = {
  short: { count: [1, 3], avg: [0, 14] },
  medium: { count: [2, 5], avg: [10, 22] },
  long: { count: [3, 8], avg: [15, Infinity] },
};

describe('the companion through the HTTP API on the virtual clock (scripts/start, Postgres)', () => {
  let hearth: RunningHearth;
  let anon: HearthClient;

  beforeAll(async () => {
    hearth = await startHearth({ mode: 'all', database: 'postgres' });
    anon = new HearthClient(hearth.url);
  });

  afterAll(async () => {
    expect(await hearth?.stop()).toEqual([0]);
  });

  const onboarded = (answers: Partial<typeof ANSWERS> = {}) => onboard(anon, answers);

  async function advance(seconds: number): Promise<void> {
    expect((await anon.advanceClock(seconds)).status).toBe(200);
  }

  const say = sayOk;

  async function trail(messageId: string): Promise<any> {
    // A fresh token each time: tokens expire on the virtual clock, which these tests move by days.
    const admin = await anon.as({ admin: true });
    const r = await admin.call('GET', `/v1/admin/turns/${messageId}`);
    expect(r.status).toBe(200);
    return r.body;
  }

  it('reaches ACQUAINTANCE and then FRIEND exactly when §11 says', async () => {
    let me = await onboarded();
    const conversation = randomUUID();
    // Each message: past reference (+4) and strong emotional disclosure (+4) = 8, clamped to +5.
    const message = 'remember i was heartbroken';
    const steps: { wait: number; stage: string; rapport: number; sessions: number }[] = [
      { wait: 0, stage: 'STRANGER', rapport: 5, sessions: 1 },
      { wait: MINUTE, stage: 'STRANGER', rapport: 10, sessions: 1 },
      // Rapport reaches the threshold, but one session is not three (§11.5 rule 2).
      { wait: MINUTE, stage: 'STRANGER', rapport: 15, sessions: 1 },
      // Just under 4 h: the same session (§11.1). The virtual clock keeps ticking with
      // real time, so the exact 4 h boundary is a unit test of the rules.
      { wait: 4 * HOUR - 30, stage: 'STRANGER', rapport: 20, sessions: 1 },
      { wait: 4 * HOUR + 1, stage: 'STRANGER', rapport: 25, sessions: 2 },
      // The third session: promoted one stage.
      { wait: 4 * HOUR + 1, stage: 'ACQUAINTANCE', rapport: 30, sessions: 3 },
      { wait: MINUTE, stage: 'ACQUAINTANCE', rapport: 35, sessions: 3 },
      // 40 reaches FRIEND's threshold, but the last promotion was minutes ago (7-day cooldown).
      { wait: MINUTE, stage: 'ACQUAINTANCE', rapport: 40, sessions: 3 },
      // 7 days of silence: −1 decay (§11.4) first, then +5; the cooldown has passed.
      { wait: 7 * DAY, stage: 'FRIEND', rapport: 44, sessions: 4 },
    ];
    let promotedAt: string | null = null;
    for (const [i, step] of steps.entries()) {
      if (step.wait) {
        await advance(step.wait);
        // The dev token expires on the virtual clock too (24 h): sign in again.
        me = await anon.as({ userId: me.userId! });
      }
      const now = (await anon.clock()).body.now;
      const reply = await say(me, conversation, message);
      const rel = await settled(
        () => me.call('GET', '/v1/me/relationship'),
        (r) => r.body.last_interaction_at !== null && Date.parse(r.body.last_interaction_at) >= Date.parse(now),
      );
      expect([i, rel.body.relationship_stage, rel.body.rapport_score, rel.body.sessions_count]).toEqual([i, step.stage, step.rapport, step.sessions]);
      const t = await trail(reply.body.message_id);
      expect(t.relationship.delta).toBe(5);
      if (i === 5 || i === 8) {
        expect(t.relationship.promotedFrom).toBe(i === 5 ? 'STRANGER' : 'ACQUAINTANCE');
        promotedAt = rel.body.last_stage_promotion_at;
        expect(Date.parse(promotedAt!)).toBeGreaterThanOrEqual(Date.parse(now));
      } else {
        expect(t.relationship.promotedFrom ?? '').toBe('');
        expect(rel.body.last_stage_promotion_at).toBe(promotedAt);
      }
      if (i === 7) expect(t.relationship.promotionBlockedBy).toBe('cooldown');
      if (i === 8) expect(t.relationship).toMatchObject({ decayPoints: 1, decayApplied: 1, sessionStarted: true });
    }
    // Inactivity decays to the stage floor and no lower: 70 days would be −10, FRIEND's floor is 40.
    await advance(70 * DAY);
    me = await anon.as({ userId: me.userId! });
    const decayed = await me.call('GET', '/v1/me/relationship');
    expect(decayed.body).toMatchObject({ relationship_stage: 'FRIEND', rapport_score: 40 });
  });

  it("keeps every reply of a 12-turn conversation inside its persona's emoji and sentence bands, never opening twice the same way", async () => {
    const lines = [
      'hi! how is your day going?',
      'I just got back from a long walk by the river',
      'honestly I am a bit tired today',
      'I love sushi and I hate the rain',
      'what do you think about learning to cook?',
      'my sister visited me this weekend',
      'we watched a really funny movie together',
      'I have an exam next week and I am nervous',
      'do you remember what I told you about the walk?',
      'ok',
      'I think I will try painting this month',
      'thanks for listening, good night',
    ];
    for (let user = 0; user < 3; user++) {
      const me = await onboarded();
      const style = (await me.call('GET', '/v1/me')).body.persona.stable_style_params;
      const conversation = randomUUID();
      const openers: string[] = [];
      for (const line of lines) {
        const reply = await say(me, conversation, line);
        const text: string = reply.body.assistant.text;
        const t = await trail(reply.body.message_id);
        const [lo, hi] = EMOJI_BAND[style.emoji_freq]!;
        const band = SENTENCE_BAND[style.msg_length_pref]!;
        const s = sentenceBand(text);
        const where = `${style.msg_length_pref}/${style.emoji_freq} "${line}" → "${text}"`;
        expect([where, emojiCount(text) >= lo && emojiCount(text) <= hi]).toEqual([where, true]);
        expect([where, s.count >= band.count[0] && s.count <= band.count[1], s.avg >= band.avg[0] && s.avg <= band.avg[1]]).toEqual([where, true, true]);
        if (!style.punctuation_quirks.includes('~')) expect(text).not.toContain('~');
        // Every §10 gate is on record for the reply that was sent.
        const sent = t.gates.filter((g: { passNumber: number }) => g.passNumber === { draft: 0, rewrite: 1, fallback: 2 }[t.outcome as string]);
        expect(sent).toHaveLength(13);
        // Each verdict says pass or fail in so many words, and why.
        for (const g of sent) expect([typeof g.pass, typeof g.detail]).toEqual(['boolean', 'string']);
        if (t.outcome !== 'fallback') {
          const opener = normalizeUserText(text.replace(/^[\p{Extended_Pictographic}\uFE0F\u200D\s]+/u, '')).normNoPunct.split(' ').slice(0, 12).join(' ');
          expect([where, openers.includes(opener)]).toEqual([where, false]);
          openers.push(opener);
        }
      }
    }
  });

  it('never brings up a suppressed topic unsolicited, and answers only what was asked when the user raises it', async () => {
    const me = await onboarded({ suppressed_topics: ['WORK_SCHOOL', 'FAMILY'] });
    const conversation = randomUUID();
    const mentions = (text: string) => detectTopics(normalizeUserText(text).normNoPunct).map((m) => m.topicId);
    // job + boss + interview: three WORK_SCHOOL keywords, confidence 0.80 ≥ 0.70, so user-initiated (§2.8, §5.1).
    const raised = await say(me, conversation, 'my boss at my new job wants me to redo the interview');
    // The user raised WORK_SCHOOL: the reply may answer, but asks nothing that reopens it.
    expect(raised.body.assistant.text).not.toContain('?');
    const t = await trail(raised.body.message_id);
    expect(t.plan.respondOnlyTopics).toEqual(['WORK_SCHOOL']);
    for (const line of ['anyway, what should I cook tonight?', 'I watched a movie yesterday', 'the weather is nice today', 'tell me something fun']) {
      const reply = await say(me, conversation, line);
      const text: string = reply.body.assistant.text;
      expect([text, mentions(text).filter((m) => m === 'WORK_SCHOOL' || m === 'FAMILY')]).toEqual([text, []]);
      const trailOf = await trail(reply.body.message_id);
      expect(trailOf.plan.tabooGuard).toEqual(expect.arrayContaining(['FAMILY', 'WORK_SCHOOL']));
      expect(trailOf.gates.find((g: { gate: string }) => g.gate === 'taboo_topics').pass).toBe(true);
    }
  });
});

describe('the companion with an LLM endpoint configured (a local OpenAI-compatible stub)', () => {
  let hearth: RunningHearth;
  let stub: LlmStub;
  let anon: HearthClient;
  let failing = false;

  /**
   * A model that follows the prompt's length and emoji targets (§9), so a reply
   * can pass the §10 gates as a draft; or an outage.
   */
  function obedientModel(body: { messages: { role: string; content: string }[] }): StubReply {
    if (failing) return { status: 503, body: { error: { message: 'overloaded' } } };
    const system = body.messages[0]!.content;
    const length = /Length: (\d+)–(\d+) sentences, (?:(\d+)–(\d+)|at least (\d+)) words/.exec(system)!;
    const emoji = /Emoji: between (\d+) and (\d+)/.exec(system)!;
    const sentences = Number(length[1]) + 1 > Number(length[2]) ? Number(length[1]) : Number(length[1]) + 1;
    const words = length[5] ? Number(length[5]) + 2 : Math.min(Number(length[4]), Math.max(Number(length[3] ?? 1), 9) + 1);
    const pool = 'that sounds like a calm and steady day for you and I am glad you shared it with me today'.split(' ');
    const text = Array.from({ length: sentences }, (_, i) => {
      const w = Array.from({ length: words }, (_, j) => pool[(i * 3 + j) % pool.length]!).join(' ');
      return w.charAt(0).toUpperCase() + w.slice(1) + '.';
    }).join(' ');
    return { content: JSON.stringify({ text: Number(emoji[1]) > 0 ? `${text} 🙂` : text, surfaced_memory_ids: [] }) };
  }

  beforeAll(async () => {
    stub = await startLlmStub(({ body }) => obedientModel(body));
    hearth = await startHearth({ mode: 'all', database: 'postgres', env: { LLM_BASE_URL: stub.url, LLM_CHAT_MODEL: 'stub-model', LLM_MAX_RETRIES: '0', LOG_LEVEL: 'info' } });
    anon = new HearthClient(hearth.url);
  });

  afterAll(async () => {
    expect(await hearth?.stop()).toEqual([0]);
    await stub?.close();
  });

  it('says at start which provider answers, replies through the LLM, and records every exchange', async () => {
    expect(hearth.output()).toContain('replies come from the configured LLM endpoint');
    const me = await onboard(anon);
    const reply = await me.say(randomUUID(), 'hello, it was a calm day');
    expect(reply.status).toBe(200);
    const admin = await anon.as({ admin: true });
    const trail = (await admin.call('GET', `/v1/admin/turns/${reply.body.message_id}`)).body;
    expect(trail.outcome).toBe('draft');
    expect(trail.llm.exchanges[0]).toMatchObject({ provider: 'openai-compatible', model: 'stub-model', purpose: 'reply', attempt: 1 });
    expect(reply.body.assistant.text).toBe(JSON.parse(trail.llm.exchanges[0].output).text);
    // The prompt carried the user's words and the persona's targets.
    // The reply's request (the belief graph and memory ask the same endpoint after it).
    const sent = stub.requests.map((r) => r.body.messages).findLast((m: { content: string }[]) => /Avoid these topics/.test(m[0]!.content))!;
    expect(sent.at(-1)).toEqual({ role: 'user', content: 'hello, it was a calm day' });
    expect(sent[0].content).toMatch(/Avoid these topics: .*POLITICS/);
  });

  it('answers "hi" during an LLM outage as it does offline: a friendly reply, the outage recorded and shown', async () => {
    // given a user past their first (welcoming) message, talking through the LLM
    const me = await onboard(anon);
    const admin = await anon.as({ admin: true });
    const conversation = randomUUID();
    expect((await me.say(conversation, 'hello, it was a calm day')).status).toBe(200);
    failing = true;
    try {
      // when the provider answers 503 to everything
      const reply = await me.say(conversation, 'hi');

      // then the friend still answers "hi" as a friend would, e.g. "Hello Mina, good to have you back. What have
      // you been up to lately?": the offline responder's reply for the turn's plan, not the safe fallback
      expect(reply.status).toBe(200);
      const text: string = reply.body.assistant.text;
      expect(text).toMatch(/\b(hi|hey|hello) mina\b/i);
      expect(text).not.toMatch(/I'm here with you|I'm listening|no pressure to say anything/i);
      const trail = (await admin.call('GET', `/v1/admin/turns/${reply.body.message_id}`)).body;
      expect(trail.outcome).not.toBe('fallback');
      // the failed LLM exchange first, then the offline render that became the reply
      expect(trail.llm.exchanges[0]).toMatchObject({ provider: 'openai-compatible', output: '', error: expect.stringMatching(/^LLM_HTTP_ERROR: HTTP 503/) });
      expect(trail.llm.final).toMatchObject({ provider: 'offline-template', output: text });
      // What an operator sees: the provider down, the failure's kind, the replies that came from the offline responder.
      const metrics = String((await anon.call('GET', '/metrics')).body);
      expect(metrics).toMatch(/hearth_llm_provider_up\{[^}]*\} 0/);
      expect(metrics).toMatch(/hearth_llm_failures_total\{[^}]*kind="server"[^}]*\} [1-9]/);
      expect(metrics).toMatch(/hearth_turn_outcomes_total\{[^}]*provider="offline-template"[^}]*\} [1-9]/);
      expect(metrics).toMatch(/hearth_llm_exchange_seconds_count\{[^}]*failed="true"[^}]*\} [1-9]/);
      // An outage degrades the replies; it does not take the service out of rotation, and readiness
      // details (shown to loopback, as here) say what is wrong since when.
      const ready = await anon.call('GET', '/readyz');
      expect(ready.status).toBe(200);
      expect(ready.body.dependencies.orchestrator.llm).toMatchObject({ ok: false, reason: expect.stringMatching(/server \(HTTP 503\)/), since: expect.any(String) });
    } finally {
      failing = false;
    }

    // and once the provider is back, it is asked again and answers
    const after = await me.say(conversation, 'hello again, a calm day');
    expect(after.status).toBe(200);
    const trail = (await admin.call('GET', `/v1/admin/turns/${after.body.message_id}`)).body;
    expect(trail.llm.exchanges.at(-1)).toMatchObject({ provider: 'openai-compatible', error: '' });
    expect(String((await anon.call('GET', '/metrics')).body)).toMatch(/hearth_llm_provider_up\{[^}]*\} 1/);
    expect((await anon.call('GET', '/readyz')).body.dependencies.orchestrator.llm).toMatchObject({ ok: true });
  });
});
