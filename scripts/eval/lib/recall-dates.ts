// When a LoCoMo temporal answer ("12 March 2024", "The week before 4 July 2024",
// "October 2021", "2021") happened, as a span of calendar days, and whether a
// memory's stated date (occurred_on + occurred_precision) falls in it. Dates are
// UTC calendar days, as the replay reads LoCoMo's session dates.
import * as chrono from 'chrono-node';

const DAY_MS = 24 * 60 * 60 * 1000;

/** day | week | month | year: the grain of a stated date, finest first. */
export type Precision = 'day' | 'week' | 'month' | 'year';
const RANK: Readonly<Record<Precision, number>> = { day: 0, week: 1, month: 2, year: 3 };

/** A gold answer as a span of days, both ends inclusive, and the grain it is stated at. */
export interface GoldSpan {
  /** YYYY-MM-DD */
  from: string;
  /** YYYY-MM-DD */
  to: string;
  precision: Precision;
}

/** How far a day answer may be off: "yesterday" said late at night, a session date read as UTC. */
export const DAY_TOLERANCE = 1;

const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const utc = (y: number, m: number, d: number): number => Date.UTC(y, m - 1, d);
const parseDay = (s: string): number => Date.parse(`${s}T00:00:00Z`);

function span(fromMs: number, toMs: number, precision?: Precision): GoldSpan {
  const days = Math.round((toMs - fromMs) / DAY_MS) + 1;
  // The grain follows from the span when the answer does not say it: a few days is a day, a week a week…
  const p = precision ?? (days <= 2 * DAY_TOLERANCE + 1 ? 'day' : days <= 14 ? 'week' : days <= 92 ? 'month' : 'year');
  return { from: day(fromMs), to: day(toMs), precision: p };
}

/** Dataset spellings chrono does not read: "21October" (no space), "June.2024", "5`", "Januarty". */
export function normalizeAnswer(answer: string): string {
  return answer
    .replace(/[`´]/g, '')
    .replace(/\bjanuarty\b/gi, 'January')
    .replace(/(\d)([a-z]{3,})/gi, (_, d: string, w: string) => (/^(st|nd|rd|th)$/i.test(w) ? d + w : `${d} ${w}`))
    .replace(/([a-z])\.(\d)/gi, '$1 $2')
    .replace(/[.\s]+$/, '')
    .trim();
}

interface ChronoDay {
  ms: number;
  precision: Precision;
  end?: number;
}

function reference(refMs: number): chrono.ParsingReference {
  return { instant: new Date(refMs), timezone: 0 };
}

/** The first date chrono reads in `text`, as a UTC day, with the grain chrono is certain of. */
function chronoDay(text: string, refMs: number): (ChronoDay & { matched: string }) | undefined {
  const r = chrono.parse(text, reference(refMs))[0];
  if (!r) return undefined;
  const at = (c: chrono.ParsedComponents) => utc(c.get('year')!, c.get('month')!, c.get('day')!);
  const precision: Precision = r.start.isCertain('day') ? 'day' : r.start.isCertain('month') ? 'month' : 'year';
  return { ms: at(r.start), precision, end: r.end ? at(r.end) : undefined, matched: r.text };
}

function monthSpan(y: number, m: number): [number, number] {
  return [utc(y, m, 1), utc(y, m + 1, 0)];
}

/** The whole period of a date read at a grain: the day, its month or its year. */
function periodOf(d: ChronoDay): [number, number] {
  const t = new Date(d.ms);
  if (d.precision === 'year') return [utc(t.getUTCFullYear(), 1, 1), utc(t.getUTCFullYear(), 12, 31)];
  if (d.precision === 'month') return monthSpan(t.getUTCFullYear(), t.getUTCMonth() + 1);
  return [d.ms, d.ms];
}

const SEASONS: Readonly<Record<string, [number, number]>> = { spring: [3, 5], summer: [6, 8], fall: [9, 11], autumn: [9, 11], winter: [12, 14] };
const ORDINAL_WEEKS: Readonly<Record<string, number>> = { first: 0, second: 1, third: 2, fourth: 3 };
const UNITS: Readonly<Record<string, Precision>> = { day: 'day', week: 'week', month: 'month', year: 'year' };
/** Words that make an answer relative or a duration; one not read by a rule below is not datable. */
const UNREAD_RELATIVE = /\b(before|after|ago|between|since|until|years?|months?|weeks?|weekends?|days?)\b/i;
/** Share of the answer's letters and digits chrono's match must cover for a plain date: not a date inside a sentence. */
const CHRONO_COVER = 0.5;

const letters = (s: string): number => (s.match(/[\p{L}\p{N}]/gu) ?? []).length;

/**
 * The span of days a temporal gold answer names, read relative to `refMs` (the
 * evidence turn's session date), or `undefined` when it names no date (a
 * duration "6 years", a place "Lisbon", "a few years before 2024").
 */
export function goldSpan(answer: string, refMs: number): GoldSpan | undefined {
  const text = normalizeAnswer(answer);
  const lower = text.toLowerCase().replace(/^(?:on|in|at)\s+/, '');

  const year = /^(?:the\s+)?(?:year\s+)?(\d{4})$/.exec(lower);
  if (year) return span(utc(Number(year[1]), 1, 1), utc(Number(year[1]), 12, 31), 'year');

  const season = /^(?:the\s+)?(spring|summer|fall|autumn|winter)(?:\s+of)?,?\s+(\d{4})$/.exec(lower);
  if (season) {
    const [a, b] = SEASONS[season[1]!]!;
    const y = Number(season[2]);
    return span(utc(y, a, 1), utc(y, b + 1, 0), 'month');
  }

  // "The week before 4 July 2024", "the Sunday before …", "a few days before …": the seven days before D.
  const before = /^(?:on\s+)?(?:the\s+|a\s+)?(?:few\s+days|week|weekend|(?:mon|tues|wednes|thurs|fri|satur|sun)day)\s+(?:before|prior\s+to)\s+(.+)$/.exec(lower);
  if (before) {
    const d = chronoDay(before[1]!, refMs);
    if (!d || d.precision !== 'day') return undefined;
    return span(d.ms - 7 * DAY_MS, d.ms - DAY_MS, 'week');
  }
  const after = /^(?:the\s+|a\s+)?(?:week|weekend)\s+after\s+(.+)$/.exec(lower);
  if (after) {
    const d = chronoDay(after[1]!, refMs);
    if (!d || d.precision !== 'day') return undefined;
    return span(d.ms + DAY_MS, d.ms + 7 * DAY_MS, 'week');
  }
  // "The week of 16 October 2024": the week around D; "The week of May 5th to 11th": that range.
  const weekOf = /^(?:the\s+)?(?:week|weekend)\s+of\s+(.+)$/.exec(lower);
  if (weekOf) {
    const d = chronoDay(weekOf[1]!, refMs);
    if (!d || d.precision !== 'day') return undefined;
    return d.end !== undefined ? span(d.ms, d.end, 'week') : span(d.ms - 6 * DAY_MS, d.ms + 6 * DAY_MS, 'week');
  }
  // "first week of June 2021", "last week of March 2024", "first weekend of May 2024".
  const nthWeek = /^(?:the\s+)?(first|second|third|fourth|last)\s+(?:week|weekend)\s+of\s+(.+)$/.exec(lower);
  if (nthWeek) {
    const d = chronoDay(nthWeek[2]!, refMs);
    if (!d || d.precision === 'year') return undefined;
    const [first, last] = monthSpan(new Date(d.ms).getUTCFullYear(), new Date(d.ms).getUTCMonth() + 1);
    if (nthWeek[1] === 'last') return span(last - 6 * DAY_MS, last, 'week');
    const start = first + ORDINAL_WEEKS[nthWeek[1]!]! * 7 * DAY_MS;
    return span(start, start + 6 * DAY_MS, 'week');
  }
  // "between 2 February and 15 March 2024": the first end takes the second's year when it has none.
  const between = /^between\s+(.+?)\s+and\s+(.+)$/.exec(lower);
  if (between) {
    // chrono reads "November 3 to 8, 2024" as one range; ends that stand alone are read one by one.
    const range = chronoDay(`${between[1]} to ${between[2]}`, refMs);
    if (range?.end !== undefined && range.precision === 'day') return span(range.ms, range.end);
    const b = chronoDay(between[2]!, refMs);
    if (!b) return undefined;
    const a = chronoDay(/\d{4}/.test(between[1]!) ? between[1]! : `${between[1]} ${new Date(b.ms).getUTCFullYear()}`, refMs);
    if (!a) return undefined;
    return span(periodOf(a)[0], periodOf(b)[1]);
  }
  // "10 years ago": at the grain of its unit.
  const ago = /^(?:about\s+|around\s+)?(\w+)\s+(day|week|month|year)s?\s+ago$/.exec(lower);
  if (ago) {
    const d = chronoDay(lower, refMs);
    if (!d) return undefined;
    const unit = UNITS[ago[2]!]!;
    if (unit === 'week') return span(d.ms - 3 * DAY_MS, d.ms + 3 * DAY_MS, 'week');
    return span(...periodOf({ ms: d.ms, precision: unit === 'day' ? 'day' : unit }), unit === 'day' ? 'day' : unit);
  }
  const around = /^(?:around|about|approximately|circa)\s+(.+)$/.exec(lower);
  const endOf = /^(?:the\s+)?(?:end|late|early|beginning|start|mid|middle)(?:\s+of)?[\s-]+(.+)$/.exec(lower);
  const plain = around?.[1] ?? endOf?.[1] ?? lower;
  if (UNREAD_RELATIVE.test(plain)) return undefined;

  const d = chronoDay(plain, refMs);
  if (!d || letters(d.matched) < CHRONO_COVER * letters(plain)) return undefined;
  if (d.end !== undefined) return span(d.ms, d.end);
  if (d.precision === 'day') {
    const slack = (around ? 3 : DAY_TOLERANCE) * DAY_MS;
    return span(d.ms - slack, d.ms + slack, 'day');
  }
  return span(...periodOf(d), d.precision);
}

/** A memory's stated date: occurred_on (the first day of its period) and its precision. */
export interface StatedDate {
  on: string;
  precision: Precision;
}

/**
 * How a memory's stated date compares with a gold span:
 * - match: its period overlaps the span and is no coarser than the answer;
 * - coarser: it overlaps, but at a coarser grain ("March 2024" for "12 March 2024");
 * - wrong: it does not overlap.
 */
export type DateVerdict = 'match' | 'coarser' | 'wrong';

function periodEnd(d: StatedDate): number {
  const start = parseDay(d.on);
  const t = new Date(start);
  switch (d.precision) {
    case 'day':
      return start;
    case 'week':
      return start + 6 * DAY_MS;
    case 'month':
      return monthSpan(t.getUTCFullYear(), t.getUTCMonth() + 1)[1];
    case 'year':
      return utc(t.getUTCFullYear(), 12, 31);
    default: {
      const never: never = d.precision;
      throw new Error(`unknown precision ${String(never)}`);
    }
  }
}

export function compareDate(stated: StatedDate, gold: GoldSpan): DateVerdict {
  const start = parseDay(stated.on);
  const overlaps = start <= parseDay(gold.to) && periodEnd(stated) >= parseDay(gold.from);
  if (!overlaps) return 'wrong';
  return RANK[stated.precision] <= RANK[gold.precision] ? 'match' : 'coarser';
}

/** The best verdict over several memories citing the evidence (match > coarser > wrong). */
export function bestVerdict(verdicts: readonly DateVerdict[]): DateVerdict | undefined {
  if (verdicts.includes('match')) return 'match';
  if (verdicts.includes('coarser')) return 'coarser';
  return verdicts.length > 0 ? 'wrong' : undefined;
}

export function isPrecision(s: string): s is Precision {
  return Object.hasOwn(RANK, s);
}

/**
 * Seconds to move the virtual clock from `nowMs` to the next instant at the
 * same month, day and time of day as `targetMs` (a LoCoMo conversation's first
 * session), and how many whole years the virtual calendar then runs ahead of
 * LoCoMo's. The clock only moves forward; after this, a month name ("in May")
 * or a weekday said in the replay means the same month as in the dataset, and a
 * memory's stated date maps back by {@link toDatasetDate}.
 */
export function alignmentAdvance(nowMs: number, targetMs: number): { seconds: number; years: number } {
  const t = new Date(targetMs);
  const at = (y: number) => Date.UTC(y, t.getUTCMonth(), t.getUTCDate(), t.getUTCHours(), t.getUTCMinutes(), t.getUTCSeconds());
  let year = new Date(nowMs).getUTCFullYear();
  // Feb 29 of a year without one is Mar 1 (Date.UTC rolls over); LoCoMo has no such date.
  while (at(year) < nowMs) year++;
  return { seconds: Math.ceil((at(year) - nowMs) / 1000), years: year - t.getUTCFullYear() };
}

/** How the virtual calendar of one replay relates to the dataset's: whole years ahead, and the same span in days. */
export interface CalendarShift {
  years: number;
  days: number;
}

/**
 * A stated date of the replay (virtual calendar) on the dataset's calendar: a
 * day or a week moves back by the shift's days (both timelines move in step,
 * so "yesterday" stays the day before the turn); a month or a year moves back
 * by its whole years (so "in May" stays May).
 */
export function toDatasetDate(stated: StatedDate, shift: CalendarShift): StatedDate {
  const start = parseDay(stated.on);
  if (stated.precision === 'day' || stated.precision === 'week') return { on: day(start - shift.days * DAY_MS), precision: stated.precision };
  const t = new Date(start);
  return { on: day(utc(t.getUTCFullYear() - shift.years, t.getUTCMonth() + 1, t.getUTCDate())), precision: stated.precision };
}
