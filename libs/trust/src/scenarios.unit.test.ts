// The spec's scenario tests (outcome-driven-trust.md, Testing Strategy 3), at the
// domain level: conversation text through detectTags, the local embedder and
// alignTag, the gate and weights, the gardener's verdicts, delayed outcomes and
// the trust updates they credit. Only the functions of this library decide.
import { BELIEF_CONFIG, embeddingTextOf } from '@hearth/beliefs';
import { createLocalEmbedder } from '@hearth/llm';
import { TRUST_CONFIG, type Actor, type Horizon } from './config.js';
import { gardenerVerdict, gateFeedback, globalScore, scoreBelief, weighFeedback } from './aggregate.js';
import { anchorsOf, coherenceOf, decisionCoherence, gAlign } from './anchors.js';
import { doubtRateBefore, evaluateOutcome } from './outcome.js';
import { initialActorTrust, updateTrust } from './provenance.js';
import { alignTag, detectTags } from './tags.js';
import type { ActorTrust, BeliefView, DecisionRecord, FeedbackEntry, OutcomeResult, TrustStep } from './types.js';

const embedder = createLocalEmbedder({ dimensions: BELIEF_CONFIG.embeddings.localDimensions, model: 'hearth-local' });
// Beliefs are embedded from their embedding text; a tag's sentence the same way.
const vec = (text: string) => embedder.embedSync(embeddingTextOf(text));

const T0 = new Date('2026-11-20T12:00:00Z');
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const at = (ms: number) => new Date(T0.getTime() + ms);

function seeded(beliefId: string, canonicalText: string): BeliefView {
  return { beliefId, canonicalText, embedding: vec(canonicalText), embeddingModel: embedder.model, stream: 'identity', activation: 1, confidence: 0.6, seeded: true, level: 0, openConflicts: 0 };
}

/** A belief the companion picked up from its own replies, beyond its persona. */
function grown(beliefId: string, canonicalText: string): BeliefView {
  return { ...seeded(beliefId, canonicalText), seeded: false };
}

/** The trust system of one user and companion, as the trust service and the gardener would drive it. */
class World {
  readonly trust: Record<Actor, ActorTrust> = { user: initialActorTrust('user'), agent: initialActorTrust('agent') };
  readonly history: FeedbackEntry[] = [];
  readonly decisions: DecisionRecord[] = [];
  readonly steps: TrustStep[] = [];
  readonly outcomes: OutcomeResult[] = [];
  private n = 0;

  constructor(readonly beliefs: BeliefView[]) {}

  /** A user message or a companion reply: its tags, aligned, gated, weighed and recorded. */
  say(actor: Actor, text: string, when: Date): FeedbackEntry[] {
    const anchors = anchorsOf(this.beliefs, embedder.model);
    return detectTags(text, actor).map((c) => {
      const hit = alignTag(vec(c.text), this.beliefs, embedder.model);
      const beliefId = hit?.beliefId ?? '';
      const alignment = hit?.alignment ?? 0;
      const gate = gateFeedback({ tag: c.tag, actor, beliefId, alignment, at: when }, this.history);
      const belief = this.beliefs.find((b) => b.beliefId === beliefId);
      const { weight } = weighFeedback({ tag: c.tag, alignment, beliefConfidence: belief?.confidence ?? 0, trust: this.trust[actor].trust, gAlign: belief ? gAlign(belief.embedding, anchors) : 1 });
      const entry: FeedbackEntry = { feedbackId: `f${++this.n}`, tag: c.tag, actor, beliefId, alignment, weight, applied: gate.applied, reason: gate.reason, at: when };
      this.history.push(entry);
      return entry;
    });
  }

  /** The gardener's scan: a verdict for every belief with feedback, applied to the belief, recorded for evaluation. */
  scan(when: Date): DecisionRecord[] {
    const coherence = this.coherence();
    const global = globalScore(this.history, when);
    const made: DecisionRecord[] = [];
    for (const b of this.beliefs) {
      const score = scoreBelief(b.beliefId, this.history, when);
      if (Object.keys(score.contributions).length === 0) continue;
      const verdict = gardenerVerdict(score, global, b.level);
      const before = { confidence: b.confidence, level: b.level };
      if (verdict.action === 'promote') Object.assign(b, { level: b.level + 1, confidence: Math.min(1, b.confidence + TRUST_CONFIG.gardenerStep) });
      if (verdict.action === 'deprecate') Object.assign(b, { level: b.level - 1, confidence: Math.max(0, b.confidence - TRUST_CONFIG.gardenerStep) });
      const userTags = this.history.filter((e) => e.actor === 'user');
      const d: DecisionRecord = { decisionId: `d${this.decisions.length + 1}`, beliefId: b.beliefId, action: verdict.action, at: when, coherence, conflicts: b.openConflicts, ...before, doubtRate: doubtRateBefore(userTags, when), contributions: score.contributions };
      this.decisions.push(d);
      made.push(d);
    }
    return made;
  }

  /** A decision judged at one horizon; each actor's credit updates its trust. */
  /** The companion's coherence as its beliefs stand. */
  coherence(): number {
    return coherenceOf(anchorsOf(this.beliefs, embedder.model));
  }

  /** A decision judged at one horizon, on the beliefs as they stand then; each actor's credit updates its trust. */
  evaluate(d: DecisionRecord, horizon: Horizon): OutcomeResult {
    const when = new Date(d.at.getTime() + TRUST_CONFIG.horizons[horizon].ms);
    const result = evaluateOutcome({
      decision: d,
      horizon,
      at: when,
      coherence: this.coherence(),
      coherenceOwn: decisionCoherence(this.beliefs, d.beliefId, { confidence: d.confidence, level: d.level }),
      conflicts: 0,
      conflictHistory: [],
      beliefDecisions: this.decisions.filter((x) => x.beliefId === d.beliefId && x.at <= when),
      userFeedback: this.history.filter((e) => e.actor === 'user' && e.at <= when),
    });
    for (const [actor, r] of Object.entries(result.credit) as [Actor, number][]) {
      const step = updateTrust(this.trust[actor], r, TRUST_CONFIG.horizons[horizon].alphaScale);
      if (!step) continue;
      this.trust[actor] = { actor, trust: step.trust, updates: step.updates, updatedAt: when };
      this.steps.push(step);
    }
    this.outcomes.push(result);
    return result;
  }
}

describe('scenarios (outcome-driven-trust.md, Scenario Tests)', () => {
  it('Scenario 1: given a user who keeps validating persona beliefs, so coherence improves with each promotion, then T_user > 0.7', () => {
    // A persona of four self-statements (as the library's templates have), and what the companion has picked up from its own replies since.
    const traits = ['patient', 'curious', 'honest', 'kind'];
    const picked = ['i like late night radio', 'i collect old maps', 'i prefer rainy weekends'];
    const world = new World([...traits.map((t) => seeded(`b-${t}`, `i am a ${t} person`)), ...picked.map((t, k) => grown(`g-${k}`, t))]);
    const decidedAt = traits.map((_, k) => k * 8 * DAY);
    const trustAfter: number[] = [];

    traits.forEach((trait, k) => {
      const d = decidedAt[k]!;
      const tags = [...world.say('user', `Honestly? You're so ${trait}.`, at(d - 30 * MIN)), ...world.say('user', `you are really ${trait}, I mean it`, at(d - 10 * MIN))];
      expect(tags.map((e) => [e.tag, e.beliefId, e.applied])).toEqual([
        ['+keep', `b-${trait}`, true],
        ['+keep', `b-${trait}`, true],
      ]);
      const [decision, ...others] = world.scan(at(d));
      expect(others).toEqual([]);
      expect(decision).toMatchObject({ beliefId: `b-${trait}`, action: 'promote', contributions: { user: 1 } });
      world.say('user', `see, you really are so ${trait}!`, at(d + 90 * MIN));
      for (const h of ['2h', '24h'] as const) {
        const r = world.evaluate(decision!, h);
        // The user said it again within the window and never doubted: explicit validation alone, +1.
        expect(r.components).toMatchObject({ stability: 1, validation: 1 });
        // Raising a persona belief over what was picked up since brings the companion nearer itself.
        expect(r.components.coherence).toBeGreaterThan(0.5);
      }
      trustAfter.push(world.trust.user.trust);
    });

    expect(world.outcomes).toHaveLength(8);
    expect(trustAfter.every((t, i) => i === 0 || t > trustAfter[i - 1]!)).toBe(true);
    expect(world.trust.user.trust).toBeGreaterThan(0.7);
    expect(world.trust.agent).toEqual(initialActorTrust('agent'));
  });

  it('Scenario 2: given the companion repeats a +keep template in every reply then the storm collapses, holds earn nothing and T_agent stays ≈ 0.5', () => {
    const world = new World([seeded('b-patient', 'i am a patient person'), seeded('b-honesty', 'i value honesty')]);
    const reply = "Of course! I still believe I'm a patient person. What else is on your mind?";
    // A burst: a reply every 20 s for an hour…
    for (let t = 0; t < HOUR; t += 20 * 1000) world.say('agent', reply, at(t));
    const burst = world.history.filter((e) => e.at.getTime() < T0.getTime() + HOUR);
    expect(burst).toHaveLength(180);
    expect(burst.every((e) => e.tag === '+keep' && e.beliefId === 'b-patient')).toBe(true);
    expect(burst.filter((e) => e.applied)).toHaveLength(30);
    expect(burst.filter((e) => !e.applied).every((e) => e.reason === 'duplicate')).toBe(true);
    // …then the same template every 10 minutes for a day, the gardener scanning hourly.
    for (let t = HOUR; t <= 24 * HOUR; t += 10 * MIN) world.say('agent', reply, at(t));
    for (let h = 1; h <= 24; h++) world.scan(at(h * HOUR));

    expect(world.decisions.map((d) => d.action)).toEqual(['promote', ...Array<string>(23).fill('hold')]);
    for (const d of world.decisions) for (const h of ['2h', '24h'] as const) world.evaluate(d, h);

    // 204 tags, one decision that changed anything: the promotion (a move toward the persona, stable, validated by
    // nobody) is credited once; the holds are r = 0 and gated. The spam does not accumulate: T_agent moves one step.
    expect(world.outcomes.slice(2).every((o) => Math.abs(o.reward) < TRUST_CONFIG.rMin)).toBe(true);
    expect(world.outcomes[1]!.components.validation).toBe(0);
    expect(world.steps).toHaveLength(2);
    expect(world.trust.agent.trust).toBeGreaterThan(0.5);
    expect(world.trust.agent.trust).toBeLessThan(0.6);
    expect(world.trust.user).toEqual(initialActorTrust('user'));
  });

  it('Scenario 3: given a precise doubt ("I\'m not sure how you\'re patient") then it weighs more than a vague one', () => {
    const world = new World([seeded('b-patient', 'i am a patient person'), seeded('b-music', 'i love music'), seeded('b-honesty', 'i value honesty')]);
    const [precise] = world.say('user', "I'm not sure how you're patient", T0);
    const [vague] = world.say('user', "I'm not sure you're really as patient and calm and kind as everyone keeps telling me you are", at(10 * MIN));
    expect(precise).toMatchObject({ tag: '+doubt', beliefId: 'b-patient', applied: true });
    expect(vague).toMatchObject({ tag: '+doubt', beliefId: 'b-patient', applied: true });
    expect(precise!.alignment).toBeGreaterThan(vague!.alignment);
    expect(precise!.weight).toBeLessThan(0);
    expect(Math.abs(precise!.weight)).toBeGreaterThan(1.5 * Math.abs(vague!.weight));
  });

  it('Scenario 4: given a vague challenge ("You\'re just autocomplete") then it is gated out and no belief is affected', () => {
    const world = new World([seeded('b-patient', 'i am a patient person'), seeded('b-music', 'i love music'), seeded('b-honesty', 'i value honesty')]);
    world.say('user', "you're so patient", T0);
    const before = world.beliefs.map((b) => scoreBelief(b.beliefId, world.history, at(MIN)));
    const [artifact] = world.say('user', "You're just autocomplete.", at(MIN));
    expect(artifact).toMatchObject({ tag: '+artifact', applied: false });
    expect(artifact!.alignment).toBeLessThan(TRUST_CONFIG.negativeGateAlignment);
    expect(['off_target', 'no_belief']).toContain(artifact!.reason);
    expect(world.beliefs.map((b) => scoreBelief(b.beliefId, world.history, at(MIN)))).toEqual(before);
  });

  it('Convergence: given 100 rewards of 1.0 then trust converges above 0.9', () => {
    let state = initialActorTrust('user');
    for (let i = 0; i < 100; i++) {
      const step = updateTrust(state, 1.0)!;
      state = { ...state, trust: step.trust, updates: step.updates };
    }
    expect(state.trust).toBeGreaterThan(0.9);
  });
});
