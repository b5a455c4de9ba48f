import { ACTORS, evaluateOutcome, updateTrust, type Actor, type ActorTrust, type OutcomeInputs, type OutcomeResult, type TrustStep } from '@hearth/trust';

export interface OutcomeDecision {
  result: OutcomeResult;
  /** One EWMA step per actor whose credit passes r_min, in ACTORS order. */
  steps: TrustStep[];
}

/**
 * One decision judged at one horizon (§2 OutcomeEvaluator, §4 Trust Learning):
 * the composite reward, each actor's credit r_actor = share · r, and T_actor
 * moved by it with the horizon's step (α_short = 0.15·α). Pure: the inputs and
 * the actors' trust as they stand before this outcome come in.
 */
export function decideOutcome(inputs: OutcomeInputs, actors: Readonly<Record<Actor, ActorTrust>>, alphaScale: number): OutcomeDecision {
  const result = evaluateOutcome(inputs);
  const steps: TrustStep[] = [];
  for (const actor of ACTORS) {
    const credit = result.credit[actor];
    if (credit === undefined) continue;
    const step = updateTrust(actors[actor], credit, alphaScale);
    if (step) steps.push(step);
  }
  return { result, steps };
}
