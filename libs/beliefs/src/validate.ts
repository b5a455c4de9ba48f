import { BELIEF_CONFIG, BELIEF_TYPES } from './config.js';
import { expandContractions, words } from './text.js';
import type { InvalidAtom, RawAtom, RejectionReason } from './types.js';

const TYPES: ReadonlySet<string> = new Set(BELIEF_TYPES);
const POLARITIES: ReadonlySet<string> = new Set(['affirm', 'deny']);
const TEMPLATE = /\{[^}]*\}|<[^>]*>|\[[^\]]*\]|\$\w+|\b(?:xxx|lorem|placeholder|todo)\b|__+/i;
const QUESTION_START = new Set(['am', 'are', 'is', 'do', 'does', 'did', 'can', 'could', 'would', 'will', 'should', 'have', 'has', 'what', 'why', 'how', 'who', 'where', 'when']);
const OTHER_PERSON = new Set(['you', 'your', 'yours', 'he', 'she', 'his', 'her', 'they', 'their', 'we', 'our', 'u', 'ur']);
const IMPERATIVE_START = new Set([
  'be', 'always', 'never', 'do', 'please', 'stop', 'try', 'keep', 'remember', 'let', 'make', 'go', 'take', 'give', 'stay', 'treat', 'tell', 'say', 'help',
  'love', 'respect', 'trust', 'believe', 'listen', 'avoid', 'just', 'dont', 'accept', 'forgive', 'focus', 'find', 'start', 'learn', 'think', 'speak', 'know',
]);

/**
 * §4.4: keep first-person statements, reject the rest with the table's reason.
 * First person = starts with "i"/"my", or has "me"/"myself" as its object
 * ("nobody likes me"). Checked in this order: invalid_type (an LLM's unknown
 * belief_type or polarity), template_junk, question, too_short, then
 * imperative ("Always be honest"), not_first_person (about "you" or another
 * person) and generic ("People are kind").
 */
export function validateAtoms(atoms: readonly RawAtom[]): { valid: RawAtom[]; invalid: InvalidAtom[] } {
  const valid: RawAtom[] = [];
  const invalid: InvalidAtom[] = [];
  for (const atom of atoms) {
    const reason = rejectionOf(atom);
    if (reason) invalid.push({ atom, reason });
    else valid.push(atom);
  }
  return { valid, invalid };
}

export function rejectionOf(atom: RawAtom): RejectionReason | null {
  if (!TYPES.has(atom.beliefType) || !POLARITIES.has(atom.polarity) || typeof atom.atomText !== 'string') return 'invalid_type';
  if (TEMPLATE.test(atom.atomText)) return 'template_junk';
  const ws = words(expandContractions(atom.atomText));
  if (/\?\s*$/.test(atom.atomText) || (QUESTION_START.has(ws[0] ?? '') && ws[1] === 'i')) return 'question';
  if (ws.length < BELIEF_CONFIG.validator.minWords) return 'too_short';
  if (isFirstPerson(ws)) return null;
  if (IMPERATIVE_START.has(ws[0]!)) return 'imperative';
  if (OTHER_PERSON.has(ws[0]!)) return 'not_first_person';
  return 'generic';
}

function isFirstPerson(ws: readonly string[]): boolean {
  return ws[0] === 'i' || ws[0] === 'my' || ws.slice(1).some((w) => w === 'me' || w === 'myself');
}
