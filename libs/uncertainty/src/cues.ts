// The offline classifier's lexicons (uncertainty-engine.md Context 1: "temporal
// cues such as moved / switched / now / used to / anymore / no longer", and
// explicit corrections). Matched on whole words of the lowercased message.

/** A change over time: the old value was true and no longer is. */
const TEMPORAL = [
  'moved', 'move', 'moving', 'relocated', 'switched', 'switch', 'changed', 'now', 'nowadays', 'these days', 'lately', 'recently',
  'used to', 'anymore', 'any more', 'no longer', 'not anymore', 'since', 'started', 'quit', 'left', 'new job', 'got a job', 'transferred',
  'graduated', 'grew out of', 'went off', 'gone off', 'over it', 'these past', 'this year', 'these days',
];

/** The user says the stored value was wrong, not that it changed. */
const CORRECTION = [
  'actually', 'correction', 'i meant', 'i mean', 'to be clear', 'not really', 'that is wrong', "that's wrong", 'thats wrong', 'you got it wrong',
  'you have it wrong', 'you are wrong', "you're wrong", 'not true', 'i never said', 'i did not say', "i didn't say", 'no i', 'no,', 'wrong',
];

/** Stance words, for reading an answer that names no item ("I still love it"). */
const LIKE = ['love', 'loved', 'like', 'liked', 'enjoy', 'adore', 'fan of', 'into it', 'still love', 'still like', 'favorite', 'favourite'];
const DISLIKE = ["don't like", 'dont like', 'do not like', 'hate', 'hated', 'dislike', "can't stand", 'cant stand', 'not a fan', 'not into', 'sick of', 'tired of', 'gross', 'went off', 'gone off', 'over it'];

function has(text: string, phrase: string): boolean {
  if (phrase.endsWith(',')) return text.startsWith(phrase) || text.includes(` ${phrase}`);
  return new RegExp(`(?:^|[^\\p{L}\\p{N}'])${phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=$|[^\\p{L}\\p{N}'])`, 'u').test(text);
}

function firstOf(text: string, phrases: readonly string[]): string | null {
  const t = text.toLowerCase();
  for (const p of phrases) if (has(t, p)) return p;
  return null;
}

/** The temporal cue of a message, or null. */
export function temporalCue(text: string): string | null {
  return firstOf(text, TEMPORAL);
}

/** The correction cue of a message, or null ("Actually I live in Busan, not Seoul"). */
export function correctionCue(text: string): string | null {
  const t = text.toLowerCase();
  // "not <the old value>" is a correction of that value; the caller checks the value.
  return firstOf(t, CORRECTION);
}

/** "…, not Seoul": the message names the stored value only to deny it. */
export function deniesValue(text: string, value: string): boolean {
  const v = value.toLowerCase().trim();
  if (!v) return false;
  const t = text.toLowerCase();
  return has(t, `not ${v}`) || has(t, `not in ${v}`) || has(t, `not at ${v}`) || has(t, `isn't ${v}`) || has(t, `not a ${v}`);
}

/** The stance a message takes without naming the item, dislike checked first ("don't like" holds "like"). */
export function stanceCue(text: string): 'like' | 'dislike' | null {
  if (firstOf(text, DISLIKE)) return 'dislike';
  if (firstOf(text, LIKE)) return 'like';
  return null;
}
