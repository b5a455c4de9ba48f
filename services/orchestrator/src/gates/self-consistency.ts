import { decompose, hasFirstPerson, LOCAL_BELIEF_EMBEDDING, selfConsistency, type BeliefType, type NodeView, type Polarity, type Stream, type TemporalScope } from '@hearth/beliefs';
import { createLocalEmbedder } from '@hearth/llm';
import type { belief } from '@hearth/proto';
import type { GateVerdict } from './verdict.js';

// The embedder the graph uses offline: pure and synchronous, so a gate can call it.
const local = createLocalEmbedder(LOCAL_BELIEF_EMBEDDING);

/** `compute` kept for the last `capacity` keys: the same few core beliefs come back every turn. */
function boundedMemo<T>(compute: (key: string) => T, capacity = 5_000): (key: string) => T {
  const cache = new Map<string, T>();
  return (key) => {
    if (cache.has(key)) return cache.get(key)!;
    if (cache.size >= capacity) cache.delete(cache.keys().next().value!);
    const value = compute(key);
    cache.set(key, value);
    return value;
  };
}

/** The local vectors of the core beliefs' texts. */
const embedOnce = boundedMemo((text) => local.embedSync(text));

/** The name the local embedder records on the vectors it makes ("hearth-local-256"). */
export const LOCAL_EMBEDDING_MODEL = local.model;

/**
 * The graph's core companion beliefs as the conflict engine sees them. A
 * belief has a vector only when the graph embedded it with the local embedder,
 * the one the gate embeds a draft with (re-embedded here from its text):
 * vectors of two models are not comparable, so another model's belief is
 * checked by its canonical hash only (contradiction, no tension).
 */
export function coreBeliefViews(core: readonly belief.CoreBelief[]): NodeView[] {
  return core.map((b) => {
    const offline = offlineForm(b.canonicalText);
    return {
      beliefId: b.beliefId,
      canonicalText: b.canonicalText,
      canonicalHash: offline?.canonicalHash ?? b.canonicalHash,
      polarity: b.polarity as Polarity,
      beliefType: b.beliefType as BeliefType,
      temporalScope: b.temporalScope as TemporalScope,
      stream: b.stream as Stream,
      // The local embedder is a pure function of the text: re-embedding it here is the
      // recorded vector, and the graph need not send 256 floats a belief on every turn.
      vector: b.embeddingModel === LOCAL_EMBEDDING_MODEL ? embedOnce(offline?.embeddingText ?? b.embeddingText) : [],
    };
  });
}

/**
 * A core belief's text as the offline pipeline canonicalizes it — the pipeline
 * the draft goes through. A belief the LLM atomized may keep words the offline
 * canonicalizer moves into the epistemic frame ("i like teasing my friends a
 * little" → "i like teasing my friends"): compared as stored, its denial in a
 * draft had another hash and too little of the same words to be caught. null
 * when the text is not one affirmed atom offline (then it is compared as stored).
 */
const offlineForm = boundedMemo((text): { canonicalHash: string; embeddingText: string } | null => {
  const atoms = decompose({ text, conversationId: 'core', holder: 'companion' }).atoms;
  return atoms.length === 1 && atoms[0]!.polarity === 'affirm' ? { canonicalHash: atoms[0]!.canonicalHash, embeddingText: atoms[0]!.embeddingText } : null;
});

// A sentence with a first-person word: only these can state a belief of the
// companion's (the atomizer keeps "i …", "my …" and "… me" clauses), and
// decomposing only them keeps the gate well under a millisecond a reply.

function selfSentences(text: string): string {
  // Split after sentence marks, each keeping its own (a question stays a question).
  return text
    .split(/(?<=[.!?…。！？])\s+/u)
    .filter(hasFirstPerson)
    .join(' ');
}

function held(beliefId: string, core: readonly NodeView[]): { text: string; deny: boolean } {
  const node = core.find((n) => n.beliefId === beliefId);
  return { text: node ? `${node.polarity === 'deny' ? 'not ' : ''}"${node.canonicalText}"` : '?', deny: node?.polarity === 'deny' };
}

function contradiction(c: { beliefId: string }, core: readonly NodeView[]): string {
  const h = held(c.beliefId, core);
  return `core belief ${h.text} (${c.beliefId}): the reply ${h.deny ? 'affirms' : 'denies'} it`;
}

function tension(c: { atomText: string; beliefId: string }, core: readonly NodeView[]): string {
  return `"${c.atomText}" vs core belief ${held(c.beliefId, core).text} (${c.beliefId})`;
}

/**
 * Issue 16 "a friend consistent with itself": the reply's self-statements
 * against the companion's core beliefs, with the conflict engine's rules
 * (self-belief-decomposer §4.15, through `selfConsistency`).
 *
 * A contradiction (the same belief, opposite polarity: "i hate quiet mornings"
 * against a core "i like quiet mornings") fails: the friend would say the
 * opposite of what it holds, so the reply is rewritten, then falls back (§10).
 * A tension passes with its detail recorded: it is a similarity judgement
 * (embedding > BELIEF_CONFIG.conflict.embeddingThreshold, opposite polarity,
 * different wording) that §4.15 keeps as an edge to look at, not a proven
 * clash; on the local hashing embedder it measures shared words, not meaning,
 * so blocking on it would rewrite replies that say nothing wrong.
 */
export function selfConsistencyGate(text: string, core: readonly NodeView[]): GateVerdict {
  const said = core.length === 0 ? '' : selfSentences(text);
  const found = said === '' ? [] : selfConsistency(said, [...core], (t) => local.embedSync(t));
  const contradictions = found.filter((c) => c.conflictType === 'contradiction');
  const tensions = found.filter((c) => c.conflictType === 'tension');
  const measured = { core_beliefs: core.length, contradictions: contradictions.length, tensions: tensions.length };
  if (contradictions.length > 0) {
    return { gate: 'self_consistency', pass: false, detail: `contradicts ${contradictions.map((c) => contradiction(c, core)).join('; ')}`, measured };
  }
  if (tensions.length > 0) return { gate: 'self_consistency', pass: true, detail: `tension: ${tensions.map((c) => tension(c, core)).join('; ')}`, measured };
  return { gate: 'self_consistency', pass: true, detail: `consistent with ${core.length} core beliefs`, measured };
}
