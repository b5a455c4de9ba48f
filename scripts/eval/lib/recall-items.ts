// The LoCoMo questions eval:recall asks: those whose evidence is the user's own
// turns (speaker_a), not adversarial (category 5), and not found wrong by the
// audit that lies beside the data (locomo/locomo_audit_errors.json).
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { parseLocomoDate } from './locomo.js';

/** Where the audit of LoCoMo's QA lives inside the shared data directory. */
export const AUDIT_FILE = 'locomo/locomo_audit_errors.json';

/** LoCoMo's QA categories, as eval:recall reports them; 5 (adversarial) is never asked. */
export const CATEGORIES: Readonly<Record<number, string>> = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop' };
export const ADVERSARIAL = 5;
/** The temporal category, whose items are also checked against the memory's stated date. */
export const TEMPORAL = 2;

const qaSchema = z.looseObject({
  question: z.string(),
  // Some answers are numbers (a year).
  answer: z.union([z.string(), z.number()]).optional(),
  evidence: z.array(z.string()),
  category: z.number(),
});
const auditSchema = z.array(z.looseObject({ question_id: z.string(), question: z.string() }));

export type QaItem = z.infer<typeof qaSchema>;

/** One question as the eval asks it. */
export interface RecallItem {
  /** "locomo_<sample index>_qa<index>", the audit's naming. */
  id: string;
  category: number;
  question: string;
  answer: string;
  /** The evidence dia_ids, normalized ("D8:6"). */
  evidence: string[];
}

/** Why items of a sample were not asked, by reason. */
export interface Skipped {
  adversarial: number;
  noEvidence: number;
  /** Some evidence is the other speaker's line (or names no line of the conversation). */
  notUsersTurns: number;
  audited: number;
}

/**
 * The audit's question ids ("locomo_0_qa1": sample 0, qa index 1, both 0-based),
 * each checked against its question's text so a reordered file fails loudly.
 */
export async function loadAudit(path: string, samples: readonly Readonly<Record<string, unknown>>[]): Promise<Set<string>> {
  let raw: string;
  try {
    raw = await readFile(path, 'utf8');
  } catch (err) {
    throw new Error(`cannot read the LoCoMo audit at ${path}: ${(err as Error).message}`, { cause: err });
  }
  const audit = auditSchema.parse(JSON.parse(raw));
  const ids = new Set<string>();
  for (const a of audit) {
    const m = /^locomo_(\d+)_qa(\d+)$/.exec(a.question_id);
    const qa = m ? z.array(qaSchema).safeParse(samples[Number(m[1])]?.['qa']) : undefined;
    const q = m && qa?.success ? qa.data[Number(m[2])] : undefined;
    if (!q || q.question !== a.question) throw new Error(`${path}: ${a.question_id} does not name the question '${a.question}' in locomo10.json`);
    ids.add(a.question_id);
  }
  return ids;
}

/**
 * LoCoMo's evidence as dia_ids: some entries hold several ("D8:6; D9:17",
 * "D9:1 D4:4") or are misspelt ("D:11:26", "D30:05").
 */
export function normalizeEvidence(evidence: readonly string[]): string[] {
  const out: string[] = [];
  for (const e of evidence) {
    for (const part of e.split(/[;,\s]+/)) {
      const m = /^D:?(\d+):0*(\d+)$/.exec(part.trim());
      if (m) out.push(`D${m[1]}:${m[2]}`);
      else if (part.trim() !== '') out.push(part.trim());
    }
  }
  return [...new Set(out)];
}

/** The session of a dia_id ("D3:14" → 3). */
export function sessionOf(diaId: string): number | undefined {
  const m = /^D(\d+):\d+$/.exec(diaId);
  return m ? Number(m[1]) : undefined;
}

interface SampleLike {
  sample_id: string;
  conversation: Record<string, unknown> & { speaker_a: string };
  qa?: unknown;
}

/** dia_id → speaker, over every session of the sample. */
function speakers(sample: SampleLike): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(sample.conversation)) {
    if (!/^session_\d+$/.test(k) || !Array.isArray(v)) continue;
    for (const t of v as { dia_id?: unknown; speaker?: unknown }[]) {
      if (typeof t.dia_id === 'string' && typeof t.speaker === 'string') out.set(t.dia_id, t.speaker);
    }
  }
  return out;
}

/** The items of sample `index` the eval asks, in the dataset's order, and why the others are not. */
export function selectItems(sample: SampleLike, index: number, audited: ReadonlySet<string>): { items: RecallItem[]; skipped: Skipped } {
  const qa = z.array(qaSchema).parse(sample.qa ?? []);
  const bySpeaker = speakers(sample);
  const user = sample.conversation.speaker_a;
  const skipped: Skipped = { adversarial: 0, noEvidence: 0, notUsersTurns: 0, audited: 0 };
  const items: RecallItem[] = [];
  for (const [i, q] of qa.entries()) {
    const id = `locomo_${index}_qa${i}`;
    const evidence = normalizeEvidence(q.evidence);
    if (q.category === ADVERSARIAL) skipped.adversarial++;
    else if (evidence.length === 0) skipped.noEvidence++;
    else if (!evidence.every((e) => bySpeaker.get(e) === user)) skipped.notUsersTurns++;
    else if (audited.has(id)) skipped.audited++;
    else items.push({ id, category: q.category, question: q.question, answer: String(q.answer ?? ''), evidence });
  }
  return { items, skipped };
}

/** The date of the session a dia_id belongs to (epoch ms, LoCoMo's dates read as UTC). */
export function sessionDateOf(sample: SampleLike, diaId: string): number | undefined {
  const n = sessionOf(diaId);
  const text = n === undefined ? undefined : sample.conversation[`session_${n}_date_time`];
  return typeof text === 'string' ? parseLocomoDate(text) : undefined;
}

/** "1-5", "6-10", "1,3,7" or "2" → 1-based conversation numbers, each within 1..max. */
export function parseConversationList(value: string, max: number): number[] {
  const out = new Set<number>();
  for (const part of value.split(',')) {
    const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
    if (!m) throw new Error(`'${part.trim()}' is not a conversation number or range (e.g. 1-5, 6-10, 1,3,7)`);
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    if (a < 1 || b > max || a > b) throw new Error(`'${part.trim()}': conversations are numbered 1 to ${max}`);
    for (let n = a; n <= b; n++) out.add(n);
  }
  return [...out].sort((x, y) => x - y);
}
