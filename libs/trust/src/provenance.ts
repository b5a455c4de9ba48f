import { TRUST_CONFIG, type Actor } from './config.js';
import { clamp } from './math.js';
import type { ActorTrust, TrustStep } from './types.js';

/** §1: every actor starts neutral, T = 0.5, with no updates. */
export function initialActorTrust(actor: Actor): ActorTrust {
  return { actor, trust: TRUST_CONFIG.initialTrust, updates: 0, updatedAt: null };
}

/**
 * §1 diminishing step: α = α₀ / (1 + n/k), n the updates made so far, scaled by
 * the horizon (§2 Dual horizons: α_short = 0.15·α).
 */
export function alphaFor(updates: number, alphaScale = 1): number {
  return (alphaScale * TRUST_CONFIG.alpha0) / (1 + Math.max(0, updates) / TRUST_CONFIG.kSamples);
}

/**
 * §1 EWMA step T ← (1 − α)T + αq with q = 0.5(r + 1), r clamped to [−1, 1].
 * Null when |r| < r_min (Safety Rails 1): a reward that small says nothing, and
 * it does not count as an update either.
 */
export function updateTrust(state: ActorTrust, reward: number, alphaScale = 1): TrustStep | null {
  if (!Number.isFinite(reward)) return null;
  const r = clamp(reward, -1, 1);
  if (Math.abs(r) < TRUST_CONFIG.rMin) return null;
  const alpha = alphaFor(state.updates, alphaScale);
  const target = 0.5 * (r + 1);
  const trust = clamp((1 - alpha) * state.trust + alpha * target, 0, 1);
  return { actor: state.actor, trustBefore: state.trust, trust, reward: r, target, alpha, updates: state.updates + 1 };
}

/** §1 get_trust_multiplier: g_trust = 0.5 + T ∈ [0.5, 1.5]. */
export function trustMultiplier(trust: number): number {
  return TRUST_CONFIG.multiplierBase + clamp(trust, 0, 1);
}
