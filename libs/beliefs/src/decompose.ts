import { atomizeRules } from './atomize.js';
import { canonicalize } from './canonicalize.js';
import { BELIEF_CONFIG, type Holder, type SourceMode } from './config.js';
import { dedupAtoms } from './dedup.js';
import { embeddingTextOf } from './embedding-text.js';
import { epistemicsOf } from './epistemics.js';
import { segment } from './segment.js';
import { sourceContextOf } from './source-context.js';
import { streamOf } from './stream.js';
import type { Decomposition, InvalidAtom, PreparedAtom, RawAtom, SourceContext } from './types.js';
import { validateAtoms } from './validate.js';

const FIRST_PERSON = /(^|[^\p{L}])(i|i['’](m|ve|d|ll)|im|ive|my|me|myself|mine)(?![\p{L}])/iu;

/** Whether a text has a first-person word: only such a text can hold an atom the rules keep (§4.4). */
export function hasFirstPerson(text: string): boolean {
  return FIRST_PERSON.test(text);
}

/**
 * Phases 1–6 of §2 (and the stream of §4.13) for one source text: source
 * context, segments, atoms (the LLM atomizer's `rawAtoms` when given, else the
 * rules atomizer), validation, canonical form and hash, in-extraction dedup,
 * epistemics of the claim the atom came from. The atom's polarity is the
 * atomizer's (it reads "i hate x" as a denial without a negation word); the
 * epistemic frame's detected polarity stays a signal. An LLM atom pointing at
 * no segment is rejected as invalid_type.
 */
export function decompose(input: { text: string; conversationId: string; holder: Holder; mode?: SourceMode; rawAtoms?: readonly RawAtom[] }): Decomposition {
  // Every atom the rules keep is first person (§4.4): a text with no first-person word has none.
  if (!input.rawAtoms && !hasFirstPerson(input.text)) return { context: uninferred(input), segments: [], atoms: [], rejected: [], duplicatesRemoved: 0 };
  const segments = segment(input.text);
  const raw = input.rawAtoms ?? atomizeRules(segments, input.holder);
  const outOfRange: InvalidAtom[] = [];
  const inRange = raw.filter((a) => {
    const ok = Number.isInteger(a.sourceIdx) && a.sourceIdx >= 0 && a.sourceIdx < segments.length;
    if (!ok) outOfRange.push({ atom: a, reason: 'invalid_type' });
    return ok;
  });
  const { valid, invalid } = validateAtoms(inRange);
  const prepared = valid.map((a) => prepare(a, segments[a.sourceIdx]!));
  const { atoms, duplicatesRemoved } = dedupAtoms(prepared);
  // §4.1 weighs the evidence; with no atom from the rules there is none to weigh (and nothing is recorded).
  const context = atoms.length > 0 || input.rawAtoms ? sourceContextOf({ text: input.text, conversationId: input.conversationId, ...(input.mode ? { mode: input.mode } : {}) }) : uninferred(input);
  return { context, segments, atoms, rejected: [...outOfRange, ...invalid], duplicatesRemoved };
}

/** The source context of a text the rules found nothing in: the mode given, or unknown, not inferred. */
function uninferred(input: { conversationId: string; mode?: SourceMode }): SourceContext {
  const mode = input.mode ?? 'unknown';
  return { mode, sourceWeight: BELIEF_CONFIG.sourceContext.modeWeights[mode], contextId: `${input.conversationId}:${mode}` };
}

function prepare(atom: RawAtom, claim: { text: string; span: { start: number; end: number } }): PreparedAtom {
  const { canonicalText, canonicalHash } = canonicalize(atom.atomText);
  const epistemics = epistemicsOf(claim.text, atom.beliefType);
  return {
    atomText: atom.atomText,
    rawText: claim.text,
    canonicalText,
    canonicalHash,
    beliefType: atom.beliefType,
    polarity: atom.polarity,
    atomConfidence: atom.confidence,
    spans: [claim.span],
    epistemics,
    embeddingText: embeddingTextOf(canonicalText),
    stream: streamOf(atom.beliefType, epistemics.frame),
  };
}
