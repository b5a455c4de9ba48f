import { heldClause, sideClause } from './describe.js';
import type { SurfacePlan } from './types.js';

// "Weave, don't interrupt" and "Real-time generation": a question in the
// friend's voice, phrased afresh each time (never one already used for the same
// uncertainty while another is left), asking instead of asserting either side:
// every sentence that names a value is itself a question.

const JUST_NOW: readonly { id: string; render: (held: string) => string }[] = [
  { id: 'thought', render: (held) => `I thought ${held} — what changed?` },
  { id: 'had_you', render: (held) => `Wait, didn't you tell me ${held}? What changed?` },
  { id: 'sworn', render: (held) => `Huh, hadn't you said ${held}? Did something change?` },
];

const LATER: readonly { id: string; render: (a: string, b: string) => string }[] = [
  { id: 'which', render: (a, b) => `Earlier you told me ${a}, and later that ${b} — which is it these days?` },
  { id: 'two_notes', render: (a, b) => `I have two notes that don't agree — ${a}, and ${b} — which one is right?` },
  { id: 'check', render: (a, b) => `Quick check, so I get it right: ${a}, or ${b}?` },
];

export interface Question {
  phrasingId: string;
  text: string;
}

/** The question for a surface plan, picked by `seed` among the phrasings not used yet for it. */
export function questionFor(plan: SurfacePlan, seed: number): Question {
  if (plan.reason === 'contradiction') {
    const p = pick(JUST_NOW, plan.usedPhrasingIds, seed);
    return { phrasingId: p.id, text: p.render(heldClause(plan.key, plan.heldValue)) };
  }
  const p = pick(LATER, plan.usedPhrasingIds, seed);
  return { phrasingId: p.id, text: p.render(sideClause(plan.key, plan.heldValue), sideClause(plan.key, plan.statedValue)) };
}

function pick<T extends { id: string }>(options: readonly T[], used: readonly string[], seed: number): T {
  const fresh = options.filter((o) => !used.includes(o.id));
  const from = fresh.length > 0 ? fresh : options;
  return from[Math.abs(Math.trunc(seed)) % from.length]!;
}
