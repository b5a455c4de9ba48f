import type { uncertainty } from '@hearth/proto';
import { heldClause, questionFor, sideClause, type Question, type SurfacePlan } from '@hearth/uncertainty';
import { OFFLINE_PROVIDER, UNCERTAINTY } from '../config.js';
import type { WithheldValue } from '../gates/index.js';
import type { UncertaintyPrompt } from './prompt.js';

// Issue 17, "Weave, don't interrupt": what a turn does with the surface
// uncertainty's CheckMessage answered. Pure.

/** The surface as libs/uncertainty phrases it (an unknown reason reads as an older one: both sides are notes). */
export function surfacePlanOf(s: uncertainty.Surface): SurfacePlan {
  return {
    uncertaintyId: s.uncertaintyId,
    reason: s.reason === 'contradiction' ? 'contradiction' : 'surfacing',
    key: s.memoryKey,
    heldValue: s.heldValue,
    statedValue: s.statedValue,
    severity: (s.severity || 'low') as SurfacePlan['severity'],
    surfacedCount: s.surfacedCount,
    usedPhrasingIds: s.usedPhrasingIds,
  };
}

/**
 * The question in the phrasings a reply may use, the turn's own (by `seed`)
 * first, then the next seeds' (UNCERTAINTY.phrasingsOffered), each once.
 */
export function questionsFor(s: uncertainty.Surface, seed: number): Question[] {
  const plan = surfacePlanOf(s);
  const out: Question[] = [];
  for (let i = 0; i < UNCERTAINTY.phrasingsOffered; i++) {
    const q = questionFor(plan, seed + i);
    if (!out.some((x) => x.phrasingId === q.phrasingId)) out.push(q);
  }
  return out;
}

/** What the LLM is told (prompt.ts): what it held and what it hears now, or the two notes; and one way to ask. */
export function uncertaintyPromptOf(s: uncertainty.Surface, question: Question): UncertaintyPrompt {
  const plan = surfacePlanOf(s);
  return {
    reason: plan.reason,
    held: plan.reason === 'contradiction' ? heldClause(plan.key, plan.heldValue) : sideClause(plan.key, plan.heldValue),
    stated: sideClause(plan.key, plan.statedValue),
    question: question.text,
  };
}

/**
 * The values a reply must not state about the surface's key: the value held
 * (contradicted now), and for an older uncertainty both notes.
 */
export function surfaceSides(s: uncertainty.Surface): WithheldValue[] {
  const sides = [{ key: s.memoryKey, value: s.heldValue }];
  if (surfacePlanOf(s).reason === 'surfacing') sides.push({ key: s.memoryKey, value: s.statedValue });
  return sides.filter((x) => x.value !== '');
}

/**
 * The question the reply carries, or null: the offline render closes with one
 * of the phrasings it was given (found in its text); an LLM was told to ask in
 * its own words, and a reply of the responder's stands for it (as a woven
 * challenge does); the safe fallback never carries one.
 */
export function carriedQuestion(questions: readonly Question[], composed: { text: string; outcome: string; provider: string | undefined }): Question | null {
  if (questions.length === 0 || composed.outcome === 'fallback') return null;
  if (composed.provider !== OFFLINE_PROVIDER.provider) return questions[0]!;
  const text = composed.text.toLowerCase();
  return questions.find((q) => text.includes(q.text.toLowerCase())) ?? null;
}
