import { canonicalText, extractRulesOnly } from '@hearth/memory-rules';
import { UNCERTAINTY } from '../config.js';

/** A retrieved memory as withholding reads it (MemorySnippet's fields). */
export interface HeldSnippet {
  memoryId: string;
  type: string;
  memoryKey: string;
  memoryValue: string;
  /** MemorySnippet.reliability, projected by memory from uncertainty's ReliabilityChanged; '' reads as reliable. */
  reliability?: string;
}

/**
 * Why a memory is not asserted: uncertainty said the message contradicts it;
 * the reply asks about its key; its reliability is not `reliable`; or the
 * message states another value for its key (the turn's own guard).
 */
export type WithholdReason = 'contradicted' | 'asked_about' | 'unreliable' | 'stated_otherwise';

export interface Withheld<T> {
  memory: T;
  reason: WithholdReason;
}

export interface Withholding<T> {
  /** What the plan may use. */
  kept: T[];
  /** What no reply may assert, in retrieval order, each with its first reason. */
  withheld: Withheld<T>[];
}

/**
 * Issue 17, "never assert": which retrieved memories the reply may use, and
 * which it must not, whatever uncertainty answered.
 *
 * (a) every memory uncertainty's CheckMessage names as contradicted or
 *     corrected by this message, and any of the key its surface asks about
 *     (the reply asks; it does not also say what it held);
 * (b) every memory whose reliability is uncertain, contradicted or superseded
 *     (uncertainty-engine.md "Context 3": not acted on while unreliable);
 * (c) the turn's own guard, for when uncertainty is down or late: memory's
 *     rules over this message (`extractRulesOnly`, well under a millisecond),
 *     and any FACT or PREFERENCE memory whose key the message states with
 *     another value ("I hate sushi" against like|sushi; "actually I live in
 *     Busan" against current_city = seoul).
 *
 * Pure: the same inputs give the same answer.
 */
export function withhold<T extends HeldSnippet>(input: { retrieved: readonly T[]; contradictedIds: readonly string[]; askedKeys?: readonly string[]; text: string; at: Date }): Withholding<T> {
  const contradicted = new Set(input.contradictedIds);
  const asked = new Set(input.askedKeys ?? []);
  const stated = statedValues(input.text, input.at);
  const out: Withholding<T> = { kept: [], withheld: [] };
  for (const m of input.retrieved) {
    const reason = asked.has(m.memoryKey) && !contradicted.has(m.memoryId) ? 'asked_about' : reasonFor(m, contradicted, stated);
    if (reason) out.withheld.push({ memory: m, reason });
    else out.kept.push(m);
  }
  return out;
}

function reasonFor(m: HeldSnippet, contradicted: ReadonlySet<string>, stated: ReadonlyMap<string, ReadonlySet<string>>): WithholdReason | null {
  if (contradicted.has(m.memoryId)) return 'contradicted';
  if (m.reliability && m.reliability !== UNCERTAINTY.assertable) return 'unreliable';
  if (m.type !== 'FACT' && m.type !== 'PREFERENCE') return null;
  const values = stated.get(m.memoryKey);
  return values && !values.has(canonicalText(m.memoryValue)) ? 'stated_otherwise' : null;
}

/** The values the message states, by key (FACT and PREFERENCE only: events and patterns hold many). */
export function statedValues(text: string, at: Date): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  if (!text.trim()) return out;
  for (const c of extractRulesOnly(text, at)) {
    if (c.type !== 'FACT' && c.type !== 'PREFERENCE') continue;
    const values = out.get(c.key) ?? new Set<string>();
    values.add(canonicalText(c.value));
    out.set(c.key, values);
  }
  return out;
}
