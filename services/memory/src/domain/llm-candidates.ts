import { canonicalText, parseKey, stanceOf } from '@hearth/memory-rules';
import type { Candidate } from './types.js';

/** What the LLM extractor is asked to return, item by item. */
export interface RawCandidate {
  type: string;
  memory_key: string;
  memory_value: string;
}

const EVENT_VALUE_MAX = 120;

/**
 * Keeps only what maps exactly to §12.3.1 (a known format whose type matches,
 * a PREFERENCE value with its stance); everything else is not stored (§12.3.1
 * extractor rule). Values are canonicalized as the heuristic's are. Pure.
 */
export function acceptLlmCandidates(raw: readonly RawCandidate[]): { accepted: Candidate[]; rejected: RawCandidate[] } {
  const accepted: Candidate[] = [];
  const rejected: RawCandidate[] = [];
  for (const r of raw) {
    const key = parseKey(r.memory_key);
    if (!key || key.type !== r.type) {
      rejected.push(r);
      continue;
    }
    let value = canonicalText(r.memory_value);
    if (key.type === 'PREFERENCE') {
      if (stanceOf(value) === null || value.split('|')[1] === '') {
        rejected.push(r);
        continue;
      }
    } else {
      value = Array.from(value).slice(0, EVENT_VALUE_MAX).join('');
    }
    if (!value) {
      rejected.push(r);
      continue;
    }
    accepted.push({ type: key.type, key: r.memory_key, value, extractor: 'llm' });
  }
  return { accepted, rejected };
}
