// LoCoMo (snap-research/LoCoMo, data/locomo10.json): read from the shared data
// directory beside the repository, never copied into it (../shared/data/README.md).
import { readFile } from 'node:fs/promises';
import { z } from 'zod';

/** Where the conversations live inside the shared data directory. */
export const LOCOMO_FILE = 'locomo/locomo10.json';

/** The chat API's limit on one message (API.md; ingress `maxMessageChars`). */
export const MAX_MESSAGE_CHARS = 4_000;

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
// "4:15 pm on 12 March, 2024"
const LOCOMO_DATE = /^\s*(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([a-z]+),?\s+(\d{4})\s*$/i;

/** A LoCoMo date that does not read as "h:mm am|pm on D Month, YYYY". */
export class LocomoFormatError extends Error {
  override readonly name = 'LocomoFormatError';
  readonly code = 'LOCOMO_FORMAT' as const;
}

/**
 * A LoCoMo session date ("4:15 pm on 12 March, 2024") as epoch milliseconds. The
 * data carries no time zone; it is read as UTC, which keeps every gap between
 * two dates exact (no daylight-saving hour).
 */
export function parseLocomoDate(text: string): number {
  const m = LOCOMO_DATE.exec(text);
  const month = m ? MONTHS.indexOf(m[5]!.toLowerCase()) : -1;
  const hour12 = m ? Number(m[1]) : 0;
  if (!m || month < 0 || hour12 < 1 || hour12 > 12) throw new LocomoFormatError(`not a LoCoMo date: '${text}'`);
  const hour = (hour12 % 12) + (m[3]!.toLowerCase() === 'pm' ? 12 : 0);
  const day = Number(m[4]);
  const ms = Date.UTC(Number(m[6]), month, day, hour, Number(m[2]));
  if (new Date(ms).getUTCDate() !== day || Number(m[2]) > 59) throw new LocomoFormatError(`not a calendar date: '${text}'`);
  return ms;
}

const turnSchema = z.looseObject({ speaker: z.string(), dia_id: z.string(), text: z.string() });
const sampleSchema = z.looseObject({
  sample_id: z.string(),
  conversation: z.looseObject({ speaker_a: z.string(), speaker_b: z.string() }).catchall(z.unknown()),
});
const fileSchema = z.array(sampleSchema).min(1);

/** One line the user (speaker_a) sends. */
export interface UserLine {
  /** LoCoMo's id of the line ("D3:14"): reports name lines by it, never by their text. */
  diaId: string;
  /** The text as sent: at most {@link MAX_MESSAGE_CHARS}. */
  text: string;
  truncated: boolean;
}

export interface PlannedSession {
  /** LoCoMo's session number (session_N). */
  number: number;
  /** The session's date as LoCoMo states it, in epoch ms (UTC reading). */
  dateMs: number;
  lines: UserLine[];
}

/** One LoCoMo sample as the eval replays it: speaker_a is the user. */
export interface PlannedConversation {
  sampleId: string;
  user: string;
  friend: string;
  /** Sessions in order, each with at least one user line (within the turn limit). */
  sessions: PlannedSession[];
  userTurns: number;
  truncations: number;
  /** Lines of the user that were empty (not sendable) and skipped. */
  skippedEmpty: number;
}

/** Reads and checks locomo10.json. Throws with the path when it is missing or not LoCoMo. */
export async function loadLocomo(path: string): Promise<z.infer<typeof fileSchema>> {
  let raw: string;
  try {
    raw = await readFile(path, 'utf8');
  } catch (err) {
    throw new Error(`cannot read LoCoMo at ${path}: ${(err as Error).message}`, { cause: err });
  }
  const parsed = fileSchema.safeParse(JSON.parse(raw));
  if (!parsed.success) throw new LocomoFormatError(`${path} is not LoCoMo's locomo10.json: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
}

/** Cuts `text` to at most `max` UTF-16 units without splitting a surrogate pair. */
export function truncateMessage(text: string, max = MAX_MESSAGE_CHARS): { text: string; truncated: boolean } {
  if (text.length <= max) return { text, truncated: false };
  let cut = max;
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
  return { text: text.slice(0, cut), truncated: true };
}

/**
 * The sessions of one sample in session order, with speaker_a's lines, up to
 * `maxTurns` lines in all. A session_N_date_time without a session_N (LoCoMo has
 * some) is not a session.
 */
export function planConversation(sample: z.infer<typeof sampleSchema>, maxTurns = Number.POSITIVE_INFINITY): PlannedConversation {
  const c = sample.conversation;
  const user = c.speaker_a;
  const numbers = Object.keys(c)
    .map((k) => /^session_(\d+)$/.exec(k))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
  const plan: PlannedConversation = { sampleId: sample.sample_id, user, friend: c.speaker_b, sessions: [], userTurns: 0, truncations: 0, skippedEmpty: 0 };
  for (const n of numbers) {
    if (plan.userTurns >= maxTurns) break;
    const turns = z.array(turnSchema).safeParse(c[`session_${n}`]);
    const date = c[`session_${n}_date_time`];
    if (!turns.success) throw new LocomoFormatError(`${sample.sample_id} session_${n}: not a list of {speaker, dia_id, text}`);
    if (typeof date !== 'string') throw new LocomoFormatError(`${sample.sample_id}: session_${n} has no session_${n}_date_time`);
    const lines: UserLine[] = [];
    for (const t of turns.data) {
      if (t.speaker !== user) continue;
      if (plan.userTurns >= maxTurns) break;
      if (t.text.trim() === '') {
        plan.skippedEmpty++;
        continue;
      }
      const cut = truncateMessage(t.text);
      if (cut.truncated) plan.truncations++;
      lines.push({ diaId: t.dia_id, text: cut.text, truncated: cut.truncated });
      plan.userTurns++;
    }
    if (lines.length > 0) plan.sessions.push({ number: n, dateMs: parseLocomoDate(date), lines });
  }
  return plan;
}

/**
 * Seconds to advance the virtual clock before each session so that session i
 * starts `date[i] − date[0]` after the first one: the first starts now; the time
 * already spent inside earlier sessions counts; a date earlier than where the
 * clock stands (LoCoMo has a few out of order) is a gap of 0, and is counted.
 * @param spentInSession virtual seconds the replay itself advances within a session of n lines.
 */
export function sessionAdvances(sessions: readonly PlannedSession[], spentInSession: (lines: number) => number): { advances: number[]; clampedGaps: number } {
  const advances: number[] = [];
  let clampedGaps = 0;
  let at = 0;
  for (const [i, s] of sessions.entries()) {
    const target = i === 0 ? 0 : (s.dateMs - sessions[0]!.dateMs) / 1000;
    if (i > 0 && s.dateMs < sessions[i - 1]!.dateMs) clampedGaps++;
    const advance = Math.max(0, target - at);
    advances.push(advance);
    at += advance + spentInSession(s.lines.length);
  }
  return { advances, clampedGaps };
}
