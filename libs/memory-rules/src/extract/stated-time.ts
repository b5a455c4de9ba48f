/**
 * The time a statement names ("yesterday", "last week", "in May", "two years
 * ago"), resolved against the turn's time with chrono-node, so an event is
 * dated when it happened rather than when it was told (issue 15; the key month
 * of §12.3.1 C follows it). Pure: the turn time is an argument.
 *
 * Dates are UTC calendar dates: the turn's time is read in UTC, as event keys
 * are bucketed.
 */
import * as chrono from 'chrono-node';
import type { StatedTime } from '../types.js';
import { STATED_TIME } from './broad-lexicon.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The tense of the clause a time is named in: a past one never lands after the turn, a plan never before it. */
export type Tense = 'past' | 'present' | 'future';

function iso(d: Date): string {
  return d.toISOString().slice(0, 10);
}

function precisionOf(text: string, known: ReadonlySet<string>): StatedTime['precision'] {
  const t = text.toLowerCase();
  if (STATED_TIME.weekWords.test(t)) return 'week';
  if (known.has('day') || STATED_TIME.dayWords.test(t)) return 'day';
  if (known.has('month') || STATED_TIME.monthWords.test(t)) return 'month';
  return 'year';
}

/**
 * The first time the text states, or null when it states none (or only a
 * duration such as "for 4 years", or a time of day such as "at 5"). A weekday
 * or month in a past-tense clause that chrono places after the turn is moved
 * back a week or a year ("I went hiking on Sunday" said on a Monday).
 */
export function statedTime(text: string, at: Date, tense: Tense): StatedTime | null {
  return lastMonth(text, at) ?? chronoTime(text, at, tense) ?? bareYear(text);
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const LAST_MONTH = new RegExp(`\\b(?:last|this past) (${MONTHS.join('|')})\\b`, 'i');
const BARE_YEAR = /\b(?:in|back in|since|during|of|from) ((?:19|20)\d\d)\b/i;

/** "last May": chrono reads no month after "last"; the latest May before the turn's month. */
function lastMonth(text: string, at: Date): StatedTime | null {
  const m = LAST_MONTH.exec(text);
  if (!m) return null;
  const month = MONTHS.indexOf(m[1]!.toLowerCase());
  const year = month < at.getUTCMonth() ? at.getUTCFullYear() : at.getUTCFullYear() - 1;
  return { on: `${year}-${String(month + 1).padStart(2, '0')}-01`, precision: 'month', text: m[0] };
}

/** "in 2020": a year alone, which chrono does not read as a date. */
function bareYear(text: string): StatedTime | null {
  const m = BARE_YEAR.exec(text);
  return m ? { on: `${m[1]}-01-01`, precision: 'year', text: m[0] } : null;
}

function chronoTime(text: string, at: Date, tense: Tense): StatedTime | null {
  const results = chrono.parse(text, { instant: at, timezone: 0 }, { forwardDate: tense === 'future' });
  for (const r of results) {
    const said = r.text.trim();
    if (STATED_TIME.reject.test(said.toLowerCase())) continue;
    const known = new Set(Object.keys((r.start as unknown as { knownValues: Record<string, number> }).knownValues));
    // A bare time of day ("at 5", "tonight at 8") dates nothing beyond the turn itself.
    if (!known.has('day') && !known.has('month') && !known.has('year') && !known.has('weekday') && !STATED_TIME.relativeWords.test(said.toLowerCase())) continue;
    let date = r.start.date();
    if (tense === 'past' && date.getTime() > at.getTime() + DAY_MS) {
      if (known.has('weekday') && !known.has('day')) date = new Date(date.getTime() - 7 * DAY_MS);
      else if (known.has('month') && !known.has('year')) date = new Date(Date.UTC(date.getUTCFullYear() - 1, date.getUTCMonth(), date.getUTCDate()));
      else continue;
    }
    const precision = precisionOf(said, known);
    const on =
      precision === 'year' ? `${date.getUTCFullYear()}-01-01`
      : precision === 'month' ? `${iso(date).slice(0, 7)}-01`
      : iso(date);
    return { on, precision, text: said };
  }
  return null;
}

/** The Date of a stated time's calendar day (UTC midnight), for an event key's month. */
export function statedDate(t: StatedTime): Date {
  return new Date(`${t.on}T00:00:00Z`);
}
