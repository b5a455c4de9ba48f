import { TRUST_CONFIG, type Actor, type Tag } from './config.js';
import { gardenerVerdict, gateFeedback, globalScore, isNegativeTag, scoreBelief, weighFeedback } from './aggregate.js';
import type { FeedbackEntry } from './types.js';

const T0 = new Date('2026-11-20T12:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const MIN = 60_000;
const HOUR = 60 * MIN;
let n = 0;
function entry(over: Partial<FeedbackEntry> & { tag: Tag; actor: Actor }): FeedbackEntry {
  n += 1;
  return { feedbackId: `f${n}`, beliefId: 'b1', alignment: 0.8, weight: TRUST_CONFIG.baseTagWeight[over.tag], applied: true, reason: 'counted', at: T0, ...over };
}

describe('weighFeedback (§3 Final Weight Calculation)', () => {
  it('given a neutral actor at cold start then weight = base · |alignment|^1.2 · (0.5 + 1.5c) · 1 · 1', () => {
    const w = weighFeedback({ tag: '+keep', alignment: 0.9, beliefConfidence: 0.6, trust: 0.5, gAlign: 1 });
    expect(w.precision).toBeCloseTo(0.9 ** 1.2, 12);
    expect(w.gConviction).toBeCloseTo(1.4, 12);
    expect(w.gTrust).toBe(1);
    expect(w.weight).toBeCloseTo(0.9 ** 1.2 * 1.4, 12);
  });

  it('given a negative tag then the weight is negative; trust, conviction and g_align scale it', () => {
    const base = { tag: '+doubt' as const, alignment: 0.9, beliefConfidence: 0, trust: 0, gAlign: 1 };
    const low = weighFeedback(base);
    const high = weighFeedback({ ...base, beliefConfidence: 1, trust: 1 });
    expect(low.weight).toBeCloseTo(-(0.9 ** 1.2) * 0.5 * 0.5, 12);
    expect(high.weight).toBeCloseTo(-(0.9 ** 1.2) * 2 * 1.5, 12);
    expect(weighFeedback({ ...base, gAlign: 0.25 }).weight).toBeCloseTo(low.weight * 0.25, 12);
  });

  it('given a precise tag then it weighs more than a vague one', () => {
    const common = { tag: '+doubt' as const, beliefConfidence: 0.6, trust: 0.5, gAlign: 1 };
    expect(Math.abs(weighFeedback({ ...common, alignment: 0.9 }).weight)).toBeGreaterThan(Math.abs(weighFeedback({ ...common, alignment: 0.3 }).weight));
  });
});

describe('gateFeedback (Safety Rails 2 and 3)', () => {
  const c = { tag: '+keep' as const, actor: 'agent' as const, beliefId: 'b1', alignment: 0.7, at: T0 };

  it('given no belief then no_belief; given a negative tag under 0.2 alignment then off_target', () => {
    expect(gateFeedback({ ...c, beliefId: '' }, [])).toEqual({ applied: false, reason: 'no_belief' });
    expect(gateFeedback({ ...c, tag: '+doubt', alignment: 0.19 }, [])).toEqual({ applied: false, reason: 'off_target' });
    expect(gateFeedback({ ...c, tag: '+artifact', alignment: 0.05 }, [])).toEqual({ applied: false, reason: 'off_target' });
    expect(gateFeedback({ ...c, tag: '+doubt', alignment: 0.2 }, [])).toEqual({ applied: true, reason: 'counted' });
    // Only challenges are gated on alignment: a faint +keep still counts.
    expect(gateFeedback({ ...c, alignment: 0.1 }, [])).toEqual({ applied: true, reason: 'counted' });
  });

  it('given an applied identical tag within 120 s before then duplicate; older, other actor, tag or belief counts', () => {
    const prior = entry({ tag: '+keep', actor: 'agent', at: at(-119_000) });
    expect(gateFeedback(c, [prior])).toEqual({ applied: false, reason: 'duplicate' });
    expect(gateFeedback(c, [{ ...prior, at: at(-120_000) }]).reason).toBe('counted');
    expect(gateFeedback(c, [{ ...prior, actor: 'user' }]).reason).toBe('counted');
    expect(gateFeedback(c, [{ ...prior, tag: '+doubt' }]).reason).toBe('counted');
    expect(gateFeedback(c, [{ ...prior, beliefId: 'b2' }]).reason).toBe('counted');
    expect(gateFeedback(c, [{ ...prior, at: at(1000) }]).reason).toBe('counted');
    // A redelivery of the same tag is not its own duplicate.
    expect(gateFeedback({ ...c, feedbackId: prior.feedbackId }, [prior]).reason).toBe('counted');
  });

  it('given a storm of identical tags every 20 s then it collapses into one per 2-minute window', () => {
    const history: FeedbackEntry[] = [];
    for (let i = 0; i < 30; i++) {
      const g = gateFeedback({ ...c, at: at(i * 20_000) }, history);
      history.push(entry({ tag: '+keep', actor: 'agent', at: at(i * 20_000), applied: g.applied, reason: g.reason }));
    }
    // 10 minutes of storm: applied at 0, 120, 240, 360, 480 s.
    expect(history.filter((e) => e.applied).map((e) => (e.at.getTime() - T0.getTime()) / 1000)).toEqual([0, 120, 240, 360, 480]);
  });
});

describe('scoreBelief and globalScore (§3 score)', () => {
  it('given nothing applied then feedback 0, neg 0 and no contributions', () => {
    expect(scoreBelief('b1', [entry({ tag: '+keep', actor: 'user', applied: false, reason: 'duplicate' })], T0)).toEqual({ feedback: 0, neg: 0, contributions: {} });
  });

  it('given fresh tags then feedback = (P − N)/(P + N + prior), neg = N/(P + N + prior), shares per actor', () => {
    const h = [entry({ tag: '+keep', actor: 'user', weight: 2 }), entry({ tag: '+doubt', actor: 'agent', weight: -1 }), entry({ tag: '+keep', actor: 'user', weight: 5, beliefId: 'b2' })];
    const s = scoreBelief('b1', h, T0);
    expect(s.feedback).toBeCloseTo(1 / 4, 12);
    expect(s.neg).toBeCloseTo(1 / 4, 12);
    expect(s.contributions.user).toBeCloseTo(2 / 3, 12);
    expect(s.contributions.agent).toBeCloseTo(1 / 3, 12);
    const g = globalScore(h, T0);
    expect(g.feedback).toBeCloseTo(6 / 9, 12);
    expect(g.neg).toBeCloseTo(1 / 9, 12);
  });

  it('given older tags then each weighs as a trace halving every 12 h; none after `at` or beyond the window', () => {
    const h = [
      entry({ tag: '+keep', actor: 'user', weight: 1, at: at(-12 * HOUR) }),
      entry({ tag: '+keep', actor: 'agent', weight: 1, at: at(-24 * HOUR) }),
      entry({ tag: '+keep', actor: 'agent', weight: 9, at: at(1) }),
      entry({ tag: '+keep', actor: 'agent', weight: 9, at: at(-TRUST_CONFIG.feedbackWindowMs - 1) }),
    ];
    const s = scoreBelief('b1', h, T0);
    expect(s.feedback).toBeCloseTo(0.75 / 1.75, 12);
    expect(s.contributions).toEqual({ agent: expect.closeTo(1 / 3, 12), user: expect.closeTo(2 / 3, 12) });
  });
});

describe('gardenerVerdict (Integration 2, Safety Rail 4)', () => {
  const score = (feedback: number) => ({ feedback, neg: 0, contributions: {} });
  const calm = { feedback: 0, neg: 0 };

  it('given feedback at or over 0.5 then promote, unless the breaker is open or the belief at the ceiling', () => {
    expect(gardenerVerdict(score(0.5), calm, 0)).toEqual({ action: 'promote', reason: 'above_promotion' });
    expect(gardenerVerdict(score(0.9), { feedback: -0.5, neg: 0.61 }, 0)).toEqual({ action: 'hold', reason: 'circuit_breaker' });
    expect(gardenerVerdict(score(0.9), { feedback: -0.5, neg: 0.6 }, 0).action).toBe('promote');
    expect(gardenerVerdict(score(0.9), calm, TRUST_CONFIG.levels.max)).toEqual({ action: 'hold', reason: 'at_ceiling' });
  });

  it('given feedback at or under −0.5 then deprecate even with the breaker open (it freezes promotions only), unless at the floor', () => {
    expect(gardenerVerdict(score(-0.5), { feedback: -0.9, neg: 0.95 }, 0)).toEqual({ action: 'deprecate', reason: 'below_deprecation' });
    expect(gardenerVerdict(score(-0.9), calm, TRUST_CONFIG.levels.min)).toEqual({ action: 'hold', reason: 'at_floor' });
  });

  it('given feedback between the thresholds then hold', () => {
    expect(gardenerVerdict(score(0.49), calm, 0)).toEqual({ action: 'hold', reason: 'between_thresholds' });
    expect(gardenerVerdict(score(-0.49), calm, 0)).toEqual({ action: 'hold', reason: 'between_thresholds' });
  });

  it('reads +doubt and +artifact as negative tags', () => {
    expect([isNegativeTag('+keep'), isNegativeTag('+doubt'), isNegativeTag('+artifact')]).toEqual([false, true, true]);
  });
});
