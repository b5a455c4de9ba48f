import { mayHaveTrustTag, splitSentences, trustTagOf } from '@hearth/text';
import { TRUST_CONFIG, type Actor } from './config.js';
import { cosine } from './math.js';
import type { BeliefView, TagCandidate } from './types.js';

export { cosine };

/**
 * The cheap pre-screen of Tag Injection: false when no sentence of `text` has a
 * tag cue (of that actor, or of either), so most turns skip detection (~1–2 µs).
 */
export function mayTag(text: string, actor?: Actor): boolean {
  return mayHaveTrustTag(text, actor);
}

/**
 * Tag Injection: the sentences of a user message (actor `user`, about the
 * companion) or of a companion reply (actor `agent`, about itself) that keep,
 * doubt or call an artifact one of the companion's beliefs; at most one tag a
 * sentence, +artifact before +doubt before +keep (lexicon: @hearth/text
 * trust-tags). Each candidate's `text` is its sentence, to be embedded like the
 * beliefs are (their embedding text) and aligned with {@link alignTag}.
 */
export function detectTags(text: string, actor: Actor): TagCandidate[] {
  if (!mayTag(text, actor)) return [];
  const out: TagCandidate[] = [];
  for (const sentence of splitSentences(text)) {
    const found = trustTagOf(sentence, actor);
    if (found) out.push({ tag: found.tag, actor, cue: found.cue, text: sentence });
  }
  return out;
}

/**
 * The belief a tag is about: the highest cosine between the tag's vector and a
 * belief's, over beliefs embedded by the same model (vectors of two models are
 * not comparable). Deprecated beliefs count too, so a user's +keep can bring one
 * back. Ties go to the smaller beliefId, so a replay aligns the same. Null when
 * the best is below TRUST_CONFIG.minAlignment: the tag names no belief.
 */
export function alignTag(textVector: readonly number[], beliefs: readonly BeliefView[], model: string): { beliefId: string; alignment: number } | null {
  let best: { beliefId: string; alignment: number } | null = null;
  for (const b of beliefs) {
    if (b.embeddingModel !== model || b.embedding.length === 0 || b.embedding.length !== textVector.length) continue;
    const alignment = cosine(textVector, b.embedding);
    if (!best || alignment > best.alignment || (alignment === best.alignment && b.beliefId < best.beliefId)) best = { beliefId: b.beliefId, alignment };
  }
  return best && best.alignment >= TRUST_CONFIG.minAlignment ? best : null;
}
