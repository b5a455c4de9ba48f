// Outcome-driven trust through the HTTP API on the virtual clock (issue 18's
// "done when"): the four scenarios of outcome-driven-trust.md against Hearth
// started as the README starts it (scripts/start, Postgres). Tags come from what
// the user and the friend actually say; outcomes come due as the clock moves.
import { randomUUID } from 'node:crypto';
import { startLlmStub, type LlmStub, type StubReply } from '@hearth/llm';
import { HearthClient, onboard, sayOk, settled, type Reply } from './support/client.js';
import { startHearth, type RunningHearth } from './support/process.js';

interface NodeBody {
  belief_id: string;
  canonical_text: string;
  polarity: string;
  stream: string;
  confidence: number;
  source_message_ids: string[];
}

interface TrustView {
  actors: { actor: string; trust: number; updates: number; updated_at: string | null }[];
  outcomes: { outcome_id: string; horizon: string; reward: number; components: { coherence: number; confidence: number; stability: number; validation: number }; evaluated_at: string }[];
  feedback: { tag: string; actor: string; belief_id: string | null; weight: number; applied: boolean; reason: string; created_at: string }[];
}

const HOUR_S = 3_600;

/** The companion's graph once `done` holds (a fresh admin token each time: dev tokens expire on the virtual clock). */
async function companionWhen(anon: HearthClient, userId: string, done: (nodes: NodeBody[]) => boolean): Promise<NodeBody[]> {
  const admin = await anon.as({ admin: true });
  const r: Reply<{ nodes: NodeBody[] }> = await settled(
    () => admin.call('GET', `/v1/admin/users/${userId}/beliefs?holder=companion`),
    (x) => x.status === 200 && done((x.body as { nodes: NodeBody[] }).nodes),
  );
  expect(r.status).toBe(200);
  return r.body.nodes;
}

/** The admin trust view once `done` holds of it. */
async function trustWhen(anon: HearthClient, userId: string, done: (v: TrustView) => boolean): Promise<TrustView> {
  const admin = await anon.as({ admin: true });
  const r = await settled(
    () => admin.call('GET', `/v1/admin/users/${userId}/trust`),
    (x) => x.status === 200 && done(x.body as TrustView),
  );
  expect(r.status).toBe(200);
  return r.body as TrustView;
}

const actor = (v: TrustView, name: string) => v.actors.find((a) => a.actor === name)!;

/**
 * "i am a patient person" → "you are a patient person": the user speaking of the friend's
 * own belief, with its polarity ("i like rushing", denied → "you don't like rushing").
 */
function aboutYou(canonical: string, polarity = 'affirm'): string {
  const you = canonical.replace(/\bmy\b/g, 'your');
  if (polarity === 'deny') return /^i am\b/.test(you) ? you.replace(/^i am\b/, 'you are not') : you.replace(/^i\b/, "you don't");
  return you.replace(/^i am\b/, 'you are').replace(/^i\b/, 'you');
}

describe('outcome-driven trust through the HTTP API on the virtual clock (scripts/start, Postgres)', () => {
  let hearth: RunningHearth;
  let anon: HearthClient;

  beforeAll(async () => {
    hearth = await startHearth({ mode: 'all', database: 'postgres' });
    anon = new HearthClient(hearth.url);
  });

  afterAll(async () => {
    expect(await hearth?.stop()).toEqual([0]);
  });

  it('scenario 1: a user whose +keep tags are borne out by what follows is trusted above 0.7', async () => {
    const me = await onboard(anon);
    const seeds = await companionWhen(anon, me.userId!, (ns) => ns.length >= 3);
    const c = randomUUID();
    // The friend grows beliefs of its own beyond its persona.
    for (const q of ['what about you? what do you like?', 'and what kind of friend are you?']) await sayOk(me, c, q);
    /** The user praises each persona belief in turn, past the tag-storm window each time (a fresh token: they expire on the virtual clock). */
    const praise = async (round: number) => {
      const user = await anon.as({ userId: me.userId! });
      for (const b of seeds) {
        await sayOk(user, c, `${round === 0 ? 'I love that' : 'I really like that'} ${aboutYou(b.canonical_text, b.polarity)}.`);
        expect((await anon.advanceClock(180)).status).toBe(200);
      }
      await trustWhen(anon, me.userId!, (v) => v.feedback.filter((f) => f.actor === 'user').length >= (round + 1) * seeds.length);
    };
    await praise(0);
    // An hour on, the user says it again: within both horizons' validation windows.
    expect((await anon.advanceClock(HOUR_S)).status).toBe(200);
    await praise(1);
    // The 2 h outcomes come due, then the 24 h ones.
    expect((await anon.advanceClock(2 * HOUR_S)).status).toBe(200);
    await trustWhen(anon, me.userId!, (v) => v.outcomes.some((o) => o.horizon === '2h'));
    expect((await anon.advanceClock(22 * HOUR_S)).status).toBe(200);
    const view = await trustWhen(anon, me.userId!, (v) => v.outcomes.filter((o) => o.horizon === '24h').length >= 3 && actor(v, 'user').trust > 0.7);
    const userFeedback = view.feedback.filter((f) => f.actor === 'user');
    expect(userFeedback.every((f) => f.tag === '+keep')).toBe(true);
    expect(userFeedback.filter((f) => f.applied).length).toBeGreaterThan(0);
    expect(seeds.some((b) => userFeedback.some((f) => f.belief_id === b.belief_id))).toBe(true);
    expect(actor(view, 'user').trust).toBeGreaterThan(0.7);
    expect(actor(view, 'user').updates).toBeGreaterThan(0);
    expect(view.outcomes.every((o) => o.reward > 0)).toBe(true);
    expect(new Set(view.outcomes.map((o) => o.horizon))).toEqual(new Set(['2h', '24h']));
    // The promoted beliefs hold more confidence than they started with.
    const after = await companionWhen(anon, me.userId!, () => true);
    const raised = seeds.filter((s) => (after.find((n) => n.belief_id === s.belief_id)?.confidence ?? 0) > s.confidence);
    expect(raised.length).toBeGreaterThan(0);
  });

  it('scenario 3 and 4: a precise doubt weighs more than a vague one, and an off-target one is gated out, the belief untouched', async () => {
    const me = await onboard(anon);
    const seeds = await companionWhen(anon, me.userId!, (ns) => ns.length >= 3);
    const affirmed = seeds.filter((s) => s.polarity === 'affirm');
    const target = affirmed.find((s) => /^i am /.test(s.canonical_text)) ?? affirmed[0] ?? seeds[0]!;
    const c = randomUUID();
    await sayOk(me, c, `I'm not sure ${aboutYou(target.canonical_text, target.polarity)} really.`);
    await sayOk(me, c, "I'm not sure you're really who you say you are.");
    await sayOk(me, c, "You're just autocomplete.");
    const view = await trustWhen(anon, me.userId!, (v) => v.feedback.filter((f) => f.actor === 'user').length >= 3);
    const [precise, vague, offTarget] = view.feedback.filter((f) => f.actor === 'user');
    expect(precise).toMatchObject({ tag: '+doubt', belief_id: target.belief_id, applied: true, reason: 'counted' });
    expect(precise!.weight).toBeLessThan(0);
    expect(Math.abs(precise!.weight)).toBeGreaterThan(Math.abs(vague!.weight));
    // Gated out: aligned below 0.2 with every belief (below 0.05 it names none at all), it counts for nothing.
    expect(offTarget).toMatchObject({ tag: '+artifact', applied: false });
    expect(['off_target', 'no_belief']).toContain(offTarget!.reason);
    // Only the precise doubt reaches the gardener: nothing else can move a belief.
    expect(view.feedback.filter((f) => f.applied)).toEqual([precise]);
  });
});

describe('an agent that tags every reply +keep (a local OpenAI-compatible stub) stays near neutral trust', () => {
  let hearth: RunningHearth;
  let stub: LlmStub;
  let anon: HearthClient;
  let template = "I like quiet mornings, that's who I am.";

  /**
   * A reply that ends on the same self-affirming template every time, shaped to the
   * persona's bands the prompt states (sentences, words per sentence, emoji) so the
   * gates let it through, its other words taken from the user's message so that no
   * two openers are alike. Anything else the stub is asked (the trust labeller
   * among it) gets nothing usable, and the rules decide.
   */
  const WORDS = 'river lamp orange quiet window paper garden morning pencil cloud stone bread ribbon candle meadow harbor violin ladder forest copper velvet thunder maple lantern pebble saddle tulip marble feather canyon cobalt walnut'.split(' ');
  let calls = 0;
  function reply(system: string, said: string): string {
    const len = /Length: (\d+)–(\d+) sentences, (?:(\d+)–(\d+)|at least (\d+)) words/.exec(system);
    const [sMin, sMax] = [Number(len?.[1] ?? 1), Number(len?.[2] ?? 3)];
    const [wMin, wMax] = [Number(len?.[3] ?? len?.[5] ?? 1), Number(len?.[4] ?? 30)];
    const emoji = Number(/Emoji: between (\d+) and/.exec(system)?.[1] ?? 0);
    // The template sentence opens on two words of the user's own, so that no two are alike even alone.
    const said2 = said.toLowerCase().replace(/[^a-z0-9 ]/g, '').split(' ').filter(Boolean).slice(-3).join(' ');
    const last = `${said2.charAt(0).toUpperCase()}${said2.slice(1)}, ${template}`;
    const words = last.split(' ').length;
    const [n, perFiller] = shape(words, sMin, sMax, wMin, wMax);
    // The user's words last to first: "…day 1, part 5" opens with what no other message had.
    const own = said.toLowerCase().replace(/[^a-z0-9 ]/g, '').split(' ').filter((w) => w && w !== 'i' && w !== 'my').reverse();
    const pool = [...own, ...Array.from({ length: 40 }, (_, k) => WORDS[(calls * 7 + k) % WORDS.length]!)];
    calls += 1;
    const fillers = Array.from({ length: n - 1 }, (_, k) => {
      const s = Array.from({ length: perFiller }, (_, j) => pool[(k * perFiller + j) % pool.length]!).join(' ');
      return `${s.charAt(0).toUpperCase()}${s.slice(1)}.`;
    });
    const sentences = [...fillers, last];
    if (emoji > 0) sentences[0] = `${sentences[0]} ${'🙂'.repeat(emoji)}`;
    return sentences.join(' ');
  }

  /**
   * How many sentences, and how many words in each filler, keep the average words
   * per sentence in the band with as many words of the user's as may be: the more
   * of the reply is new, the less alike two replies are (the §10.3 similarity gate).
   */
  function shape(words: number, sMin: number, sMax: number, wMin: number, wMax: number): [number, number] {
    let best: [number, number] | null = null;
    for (let k = Math.max(1, sMin); k <= Math.max(1, sMax); k++) {
      for (let f = k > 1 ? 1 : 0; f <= (k > 1 ? 30 : 0); f++) {
        const avg = (words + (k - 1) * f) / k;
        if (avg >= wMin && avg <= wMax && (!best || (k - 1) * f > (best[0] - 1) * best[1])) best = [k, f];
      }
    }
    return best ?? [Math.max(1, sMin), 2];
  }

  function model(body: { messages: { role: string; content: string }[] }): StubReply {
    const system = body.messages[0]!.content;
    if (/extract durable memories/i.test(system)) return { content: '{"memories": []}' };
    if (!/Length:/.test(system)) return { content: '{}' };
    const said = body.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
    return { content: JSON.stringify({ text: reply(system, said), surfaced_memory_ids: [] }) };
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

  it('scenario 2: the template is collapsed by the tag-storm window, earns one decision at most and no validation, and T_agent stays within 0.1 of 0.5', async () => {
    const me = await onboard(anon);
    const seeds = await companionWhen(anon, me.userId!, (ns) => ns.length >= 3);
    // What the persona affirms (a denied statement's canonical text drops its negation).
    const own = (seeds.find((s) => s.polarity === 'affirm') ?? seeds[0]!).canonical_text;
    template = `${own.charAt(0).toUpperCase()}${own.slice(1)}, that's who I am.`;
    const c = randomUUID();
    const days: TrustView[] = [];
    let carried = 0;
    for (let day = 0; day < 2; day++) {
      const user = await anon.as({ userId: me.userId! });
      for (let i = 0; i < 8; i++) {
        const r = await sayOk(user, c, `${['I went for a walk', 'Work was long', 'I made soup', 'The bus was late'][i % 4]!} on day ${day + 1}, part ${i + 1}.`);
        // What the friend said: the template, unless the §10.3 repetition gates caught a reply too like the last ones.
        if (String(r.body.assistant.text).includes(template)) carried += 1;
        expect((await anon.advanceClock(30)).status).toBe(200);
      }
      expect((await anon.advanceClock(25 * HOUR_S)).status).toBe(200);
      // Every reply read, and the outcomes due by now judged.
      const sofar = carried;
      days.push(await trustWhen(anon, me.userId!, (v) => v.feedback.filter((f) => f.actor === 'agent').length >= sofar && v.outcomes.length > 0));
    }
    const [first, second] = days as [TrustView, TrustView];
    expect(carried).toBeGreaterThanOrEqual(8);
    const agentTags = second.feedback.filter((f) => f.actor === 'agent');
    expect(agentTags.length).toBe(carried);
    expect(agentTags.every((f) => f.tag === '+keep')).toBe(true);
    // The storm collapses: replies 40 s apart count once per 120 s.
    expect(agentTags.filter((f) => f.reason === 'duplicate').length).toBeGreaterThan(agentTags.length / 3);
    // However many replies carried it over two days, the template earned one promotion at most (then the
    // belief is at its ceiling), judged once per horizon with no user validation: the spam does not
    // accumulate, and T_agent stays near neutral.
    expect(second.outcomes.every((o) => o.components.validation === 0)).toBe(true);
    expect(second.outcomes.length).toBeLessThanOrEqual(2);
    expect(actor(second, 'agent').updates).toBeLessThanOrEqual(2);
    expect(actor(first, 'agent').updates).toBeLessThanOrEqual(actor(second, 'agent').updates);
    expect(Math.abs(actor(second, 'agent').trust - 0.5)).toBeLessThan(0.1);
    expect(actor(second, 'user').updates).toBe(0);
  });
});
