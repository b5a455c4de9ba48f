import { TRUST_CONFIG } from './config.js';
import { alphaFor, initialActorTrust, trustMultiplier, updateTrust } from './provenance.js';
import type { ActorTrust } from './types.js';

function apply(state: ActorTrust, reward: number, alphaScale = 1): ActorTrust {
  const step = updateTrust(state, reward, alphaScale);
  return step ? { ...state, trust: step.trust, updates: step.updates } : state;
}

describe('provenance trust (§1)', () => {
  it('given a new actor then it starts neutral at 0.5 with no updates', () => {
    expect(initialActorTrust('user')).toEqual({ actor: 'user', trust: 0.5, updates: 0, updatedAt: null });
  });

  it('given one reward of 0.5 when updated then 0.5 < T < 0.6 (spec unit test)', () => {
    const step = updateTrust(initialActorTrust('user'), 0.5);
    expect(step).toEqual({ actor: 'user', trustBefore: 0.5, trust: expect.any(Number), reward: 0.5, target: 0.75, alpha: 0.3, updates: 1 });
    expect(step!.trust).toBeGreaterThan(0.5);
    expect(step!.trust).toBeLessThan(0.6);
    expect(step!.trust).toBeCloseTo(0.575, 10);
  });

  it('given 100 rewards of 1.0 when updated then T > 0.9 (converges to high trust)', () => {
    let s = apply(initialActorTrust('user'), 0.5);
    for (let i = 0; i < 100; i++) s = apply(s, 1.0);
    expect(s.trust).toBeGreaterThan(0.9);
    expect(s.trust).toBeLessThanOrEqual(1);
    expect(s.updates).toBe(101);
  });

  it('given 100 rewards of −1.0 when updated then T falls towards 0 and stays in [0, 1]', () => {
    let s = initialActorTrust('agent');
    for (let i = 0; i < 100; i++) s = apply(s, -1);
    expect(s.trust).toBeLessThan(0.1);
    expect(s.trust).toBeGreaterThanOrEqual(0);
  });

  it('given |r| below r_min when updated then nothing changes and no update is counted (Safety Rail 1)', () => {
    const s = initialActorTrust('user');
    expect(updateTrust(s, 0.099)).toBeNull();
    expect(updateTrust(s, -0.05)).toBeNull();
    expect(updateTrust(s, 0)).toBeNull();
    expect(updateTrust(s, Number.NaN)).toBeNull();
    expect(updateTrust(s, TRUST_CONFIG.rMin)).not.toBeNull();
    expect(updateTrust(s, -TRUST_CONFIG.rMin)).not.toBeNull();
  });

  it('given more updates then the step diminishes as α₀/(1 + n/k), half a step at k samples', () => {
    expect(alphaFor(0)).toBeCloseTo(0.3, 12);
    expect(alphaFor(50)).toBeCloseTo(0.15, 12);
    expect(alphaFor(150)).toBeCloseTo(0.075, 12);
    const early = updateTrust({ actor: 'user', trust: 0.5, updates: 0, updatedAt: null }, 1)!;
    const late = updateTrust({ actor: 'user', trust: 0.5, updates: 200, updatedAt: null }, 1)!;
    expect(late.trust - 0.5).toBeLessThan(early.trust - 0.5);
    expect(late.alpha).toBeCloseTo(0.3 / 5, 12);
  });

  it('given the short horizon then the step is scaled (α_short = 0.15·α)', () => {
    expect(alphaFor(0, TRUST_CONFIG.horizons['2h'].alphaScale)).toBeCloseTo(0.045, 12);
    expect(updateTrust(initialActorTrust('user'), 1, 0.15)!.trust).toBeCloseTo(0.5 + 0.045 * 0.5, 12);
  });

  it('given a reward beyond [−1, 1] then it is clamped before the target is taken', () => {
    const step = updateTrust(initialActorTrust('user'), 7)!;
    expect(step.reward).toBe(1);
    expect(step.target).toBe(1);
    expect(updateTrust(initialActorTrust('user'), -3)!.target).toBe(0);
  });

  it('maps trust to the multiplier 0.5 + T ∈ [0.5, 1.5]', () => {
    expect(trustMultiplier(0)).toBe(0.5);
    expect(trustMultiplier(0.5)).toBe(1);
    expect(trustMultiplier(1)).toBe(1.5);
    expect(trustMultiplier(2)).toBe(1.5);
  });
});
