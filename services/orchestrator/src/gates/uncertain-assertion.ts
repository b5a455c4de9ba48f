import { containsAny, normalizeUserText } from '@hearth/text';
import { itemWords } from '@hearth/uncertainty';
import type { GateVerdict } from './verdict.js';

/** A memory the reply must not assert (issue 17; turn/withhold.ts), as the gate reads it. */
export interface WithheldValue {
  key: string;
  /** As stored: `like|sushi`, `seoul`, `new_york`, or an event's words. */
  value: string;
}

/** The words a value is named by: the item of a stance, underscores as spaces ("like|new_york" → "new york"). */
export function namedBy(value: string): string {
  return normalizeUserText(itemWords(value)).normNoPunct;
}

// A sentence keeps its end mark (§10.5's, split after), so a question stays a question; emoji or a quirk may follow the mark.
const SENTENCE_END = /(?<=[.!?…。！？｡．])\s+/u;
const ASKS = /[?？][^\p{L}\p{N}]*$/u;

/** The surface uncertainty answered for the turn (issue 17), as the gate reads it: not recorded whole in the turn. */
export interface AskedUncertainty {
  /** The values the question is about (turn/surface.ts `surfaceSides`). */
  sides: readonly WithheldValue[];
  /** The question in the phrasings the reply was given, any of which it may carry. */
  questions: readonly string[];
}

function withoutAsked(text: string, questions: readonly string[]): { rest: string; asked: boolean } {
  const lower = text.toLowerCase();
  for (const question of questions) {
    const q = question.trim();
    const at = q ? lower.indexOf(q.toLowerCase()) : -1;
    if (at >= 0) return { rest: `${text.slice(0, at)} ${text.slice(at + q.length)}`, asked: true };
  }
  return { rest: text, asked: false };
}

/**
 * Issue 17 "never assert": a reply sentence that states (is not a question)
 * and names the words of a withheld memory's value fails — "sushi" for
 * like|sushi, "seoul" for current_city = seoul — so the reply is rewritten,
 * then falls back (§10). With a surface to ask about, its sides are withheld
 * too, and the question the reply was given passes whole, statement clauses
 * of its phrasing included: asking which is right asserts neither. `measured`
 * says whether a surface was judged by (`surface`: its sides and phrasings are
 * uncertainty's answer, which the turn records only in part). Pure.
 */
export function uncertainAssertionGate(text: string, withheld: readonly WithheldValue[], surface: AskedUncertainty | null = null): GateVerdict {
  const { rest, asked } = withoutAsked(text, surface?.questions ?? []);
  const values = [...new Map([...withheld, ...(surface?.sides ?? [])].map((w) => [namedBy(w.value), w.key])).entries()].filter(([words]) => words !== '');
  const named = new Map<string, string>();
  if (values.length > 0) {
    for (const sentence of rest.split(SENTENCE_END)) {
      if (ASKS.test(sentence.trim())) continue;
      const norm = normalizeUserText(sentence).normNoPunct;
      for (const words of containsAny(norm, values.map(([w]) => w))) named.set(words, values.find(([w]) => w === words)![1]);
    }
  }
  const measured = { withheld: values.length, named: named.size, surface: surface ? 1 : 0, question: asked ? 1 : 0 };
  if (named.size > 0) {
    const list = [...named.entries()].map(([words, key]) => `"${words}" (${key})`).join(', ');
    return { gate: 'uncertain_assertion', pass: false, detail: `states ${list}: a withheld memory may be asked about, never asserted`, measured };
  }
  return { gate: 'uncertain_assertion', pass: true, detail: `asserts none of ${values.length} withheld memories${asked ? '; the woven question asks' : ''}`, measured };
}
