import type { Logger } from '@hearth/telemetry';
import { describeFailure, openaiClient } from './chat.js';
import type { LlmChatConfig } from './config.js';
import { LlmError } from './errors.js';

/** Turns texts into vectors; the same model always gives comparable vectors. */
export interface Embedder {
  /** Which adapter: `openai-compatible` or `local-hash`. */
  readonly provider: string;
  /** Recorded with every vector, so vectors of different models are never compared. */
  readonly model: string;
  /** One vector per text, in order. @throws {LlmError} when the endpoint fails. */
  embed(texts: readonly string[]): Promise<number[][]>;
}

/** How to reach the embeddings endpoint (`LlmConfig.embeddings`). */
export type EmbeddingClientConfig = Omit<LlmChatConfig, 'temperature'>;

/** Embeddings from an OpenAI-compatible `/embeddings` endpoint; HTTP retries are the client's. */
export function createEmbeddingClient(cfg: EmbeddingClientConfig, deps: { fetch?: typeof fetch; logger?: Logger } = {}): Embedder {
  const openai = openaiClient(cfg, deps);
  return {
    provider: 'openai-compatible',
    model: cfg.model,
    async embed(texts) {
      if (texts.length === 0) return [];
      try {
        const res = await openai.embeddings.create({ model: cfg.model, input: [...texts], encoding_format: 'float' });
        const out = [...res.data].sort((a, b) => a.index - b.index).map((d) => d.embedding);
        if (out.length !== texts.length) throw new LlmError('LLM_EMPTY', `asked ${texts.length} embeddings, got ${out.length}`, { retryable: false, exchanges: [] });
        return out;
      } catch (err) {
        if (err instanceof LlmError) throw err;
        const f = describeFailure(err, cfg.timeoutMs);
        throw new LlmError(f.code, f.message, { retryable: f.retryable, exchanges: [], cause: err, ...(f.status === undefined ? {} : { status: f.status }) });
      }
    },
  };
}

const TOKEN = /[\p{L}\p{N}]+/gu;

/** FNV-1a over UTF-16 units: a stable 32-bit hash with no dependency. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * The local embedder when no endpoint is configured: feature hashing of words
 * (weight 1) and their character trigrams (weight 0.5, so "sushi" is near "sushis"
 * and Hangul words near their inflections), signed, L2-normalized. Deterministic
 * and dependency-free; it finds shared words, not meaning.
 */
export function createLocalEmbedder(opts: { dimensions: number; model: string }): Embedder & { embedSync(text: string): number[] } {
  const { dimensions } = opts;
  if (!Number.isInteger(dimensions) || dimensions < 8) throw new RangeError(`dimensions must be an integer ≥ 8, got ${dimensions}`);
  const add = (v: Float64Array, feature: string, weight: number) => {
    const h = fnv1a(feature);
    v[h % dimensions]! += (h & 0x8000_0000 ? -1 : 1) * weight;
  };
  const embedOne = (text: string): number[] => {
    const v = new Float64Array(dimensions);
    for (const word of text.normalize('NFKC').toLowerCase().match(TOKEN) ?? []) {
      add(v, `w:${word}`, 1);
      const chars = Array.from(`^${word}$`);
      for (let i = 0; i + 3 <= chars.length; i++) add(v, `t:${chars.slice(i, i + 3).join('')}`, 0.5);
    }
    let norm = 0;
    for (const x of v) norm += x * x;
    norm = Math.sqrt(norm);
    return Array.from(v, (x) => (norm === 0 ? 0 : x / norm));
  };
  return {
    provider: 'local-hash',
    model: `${opts.model}-${dimensions}`,
    embed: (texts) => Promise.resolve(texts.map(embedOne)),
    // Pure and synchronous, for checks that cannot wait (a reply's quality gates).
    embedSync: embedOne,
  };
}

/** Cosine similarity; 0 when either vector is zero or their lengths differ. */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
