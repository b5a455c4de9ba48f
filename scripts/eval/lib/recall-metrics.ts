// What eval:recall measures, from what one conversation's replay and questions
// returned: pure functions over plain records, so every figure can be checked
// in a unit test without Hearth.
import { bestVerdict, compareDate, goldSpan, isPrecision, toDatasetDate, type CalendarShift, type DateVerdict, type GoldSpan, type StatedDate } from './recall-dates.js';
import { CATEGORIES, TEMPORAL, type RecallItem } from './recall-items.js';
import { answerPresent, sharesContent } from './recall-text.js';

/** The targets (issue 15, offline, conversations 6–10), shown beside the totals. */
export const TARGETS = { coverage: 0.6, surfacedRecall: 0.4, surfacedPrecision: 0.8, temporalDates: 0.7 } as const;

/** One memory as GET /v1/me/memories shows it (API.md), with the stated date when the API carries it. */
export interface MemoryView {
  memory_id: string;
  type: string;
  memory_key: string;
  memory_value: string | null;
  status: string;
  source_message_ids: string[];
  occurred_on?: string | null;
  occurred_precision?: string | null;
}

/** A replayed line of the user (not a recall question). */
export interface OrdinaryTurn {
  diaId: string;
  text: string;
  /** The memories its reply surfaced, with their values when known (the trail's retrieval, else the memory list). */
  surfaced: { memoryId: string; value: string | null }[];
}

/** One recall question as asked. */
export interface AskedItem {
  item: RecallItem;
  /** The first-person question sent. */
  question: string;
  /** The evidence turns' message_ids. */
  evidenceMessageIds: string[];
  /** The evidence turn's session date (epoch ms): the reference for reading a relative answer. */
  refMs: number;
  /** False when the question got no reply (counted by the API as an error). */
  ok: boolean;
  /** The turn's outcome (draft | rewrite | fallback | …): a fallback may drop what the draft surfaced. */
  outcome?: string;
  /** Gates that failed the draft, with their detail: why a fallback may have dropped what the draft surfaced. */
  draftFailures?: { gate: string; detail: string }[];
  reply?: string;
  surfacedMemoryIds: string[];
  /** What the turn retrieved (the trail's retrieval), surfaced or not: tells a retrieval miss from a surfacing one. */
  retrievedMemoryIds: string[];
  /** The relevance the memory service gave each retrieved memory, by id (for tuning the surfacing threshold). */
  relevanceOf?: Readonly<Record<string, number>>;
}

export interface ConversationInput {
  sampleId: string;
  user: string;
  turns: readonly OrdinaryTurn[];
  /** ACTIVE memories right after the replay, before the questions. */
  kept: readonly MemoryView[];
  /** Every memory at the end (?status=all): the sources of what the questions surfaced. */
  all: readonly MemoryView[];
  /** Stated dates by memory_id, when the memory list does not carry them (read from MemoryRecorded). */
  statedDates: ReadonlyMap<string, StatedDate>;
  /**
   * How far the replay's virtual calendar runs ahead of the dataset's: a stated
   * date is compared as stored (an absolute "in 2022") and moved back by it (a
   * relative "last year"), the better verdict counting. No shift: as stored only.
   */
  shift?: CalendarShift;
  asked: readonly AskedItem[];
}

/** Date outcome of a covered temporal item. */
export type TemporalVerdict = DateVerdict | 'undated' | 'not datable';

export interface ItemOutcome {
  id: string;
  category: number;
  question: string;
  asked: string;
  answer: string;
  /** An ACTIVE memory after the replay cites an evidence turn. */
  covered: boolean;
  citing: string[];
  ok: boolean;
  outcome?: string;
  draftFailures?: { gate: string; detail: string }[];
  /** The recall question's reply surfaced a memory citing an evidence turn. */
  surfacedCiting: boolean;
  surfaced: string[];
  /** The recall question's turn retrieved a memory citing an evidence turn (whether or not the reply surfaced it). */
  retrievedCiting: boolean;
  /** The highest relevance the memory service gave a retrieved memory citing an evidence turn. */
  citingRelevance?: number;
  /** undefined: the answer has no content word to look for, or no reply. */
  answerPresent?: boolean;
  reply?: string;
  gold?: GoldSpan;
  temporal?: TemporalVerdict;
  statedDates?: StatedDate[];
  /** The same dates on the dataset's calendar (see {@link ConversationInput.shift}). */
  datasetDates?: StatedDate[];
}

export interface Tally {
  items: number;
  covered: number;
  /** Questions that got a reply. */
  answered: number;
  surfacedCiting: number;
  retrievedCiting: number;
  /** Replies checked for the answer (the answer has a content word). */
  answerChecked: number;
  answerPresent: number;
}

export interface TemporalTally {
  covered: number;
  notDatable: number;
  /** Covered and datable: the denominator of date accuracy. */
  datable: number;
  match: number;
  coarser: number;
  wrong: number;
  /** The citing memories carry no stated date. */
  undated: number;
}

export interface PrecisionTally {
  turns: number;
  turnsSurfacing: number;
  surfaced: number;
  /** Surfaced memories whose value shares a content word with the message. */
  sharing: number;
  /** Surfaced memories whose value the eval could not read (not counted in the share). */
  unknownValue: number;
}

export interface ConversationRecall {
  sampleId: string;
  user: string;
  memories: { active: number; byType: Record<string, number> };
  precision: PrecisionTally;
  total: Tally;
  byCategory: Record<string, Tally>;
  temporal: TemporalTally;
  items: ItemOutcome[];
  /** Ordinary turns' surfaced memories that share nothing with the message, a few, for reading. */
  offTopic: { diaId: string; text: string; memory: string }[];
}

const OFF_TOPIC_EXAMPLES = 5;

export function emptyTally(): Tally {
  return { items: 0, covered: 0, answered: 0, surfacedCiting: 0, retrievedCiting: 0, answerChecked: 0, answerPresent: 0 };
}

export function emptyTemporal(): TemporalTally {
  return { covered: 0, notDatable: 0, datable: 0, match: 0, coarser: 0, wrong: 0, undated: 0 };
}

export function emptyPrecision(): PrecisionTally {
  return { turns: 0, turnsSurfacing: 0, surfaced: 0, sharing: 0, unknownValue: 0 };
}

/** A memory's stated date, from the list when it carries one, else from the map. */
function statedDateOf(m: MemoryView, dates: ReadonlyMap<string, StatedDate>): StatedDate | undefined {
  if (m.occurred_on && m.occurred_precision && isPrecision(m.occurred_precision)) return { on: m.occurred_on, precision: m.occurred_precision };
  return dates.get(m.memory_id);
}

function citingRelevance(a: AskedItem, cites: (id: string) => boolean): { citingRelevance?: number } {
  const values = a.retrievedMemoryIds.filter(cites).map((id) => a.relevanceOf?.[id] ?? 0);
  return values.length > 0 ? { citingRelevance: Math.max(...values) } : {};
}

function add(t: Tally, o: ItemOutcome): void {
  t.items++;
  if (o.covered) t.covered++;
  if (o.ok) t.answered++;
  if (o.surfacedCiting) t.surfacedCiting++;
  if (o.retrievedCiting) t.retrievedCiting++;
  if (o.answerPresent !== undefined) {
    t.answerChecked++;
    if (o.answerPresent) t.answerPresent++;
  }
}

export function categoryName(category: number): string {
  return CATEGORIES[category] ?? `category ${category}`;
}

/** Every figure of one conversation. */
export function evaluateConversation(input: ConversationInput): ConversationRecall {
  const byType: Record<string, number> = {};
  for (const m of input.kept) byType[m.type] = (byType[m.type] ?? 0) + 1;

  const precision = emptyPrecision();
  const offTopic: ConversationRecall['offTopic'] = [];
  for (const t of input.turns) {
    precision.turns++;
    if (t.surfaced.length > 0) precision.turnsSurfacing++;
    for (const s of t.surfaced) {
      precision.surfaced++;
      if (s.value === null) {
        precision.unknownValue++;
      } else if (sharesContent(t.text, s.value)) {
        precision.sharing++;
      } else if (offTopic.length < OFF_TOPIC_EXAMPLES) {
        offTopic.push({ diaId: t.diaId, text: t.text, memory: s.value });
      }
    }
  }

  const sourcesById = new Map<string, readonly string[]>();
  for (const m of input.all) sourcesById.set(m.memory_id, m.source_message_ids);
  for (const m of input.kept) sourcesById.set(m.memory_id, m.source_message_ids);

  const total = emptyTally();
  const byCategory: Record<string, Tally> = {};
  const temporal = emptyTemporal();
  const items: ItemOutcome[] = [];
  for (const a of input.asked) {
    const evidence = new Set(a.evidenceMessageIds);
    const cites = (sources: readonly string[] | undefined) => (sources ?? []).some((id) => evidence.has(id));
    const citing = input.kept.filter((m) => cites(m.source_message_ids));
    const o: ItemOutcome = {
      id: a.item.id,
      category: a.item.category,
      question: a.item.question,
      asked: a.question,
      answer: a.item.answer,
      covered: citing.length > 0,
      citing: citing.map((m) => m.memory_id),
      ok: a.ok,
      ...(a.outcome !== undefined ? { outcome: a.outcome } : {}),
      ...(a.draftFailures?.length ? { draftFailures: a.draftFailures } : {}),
      surfacedCiting: a.surfacedMemoryIds.some((id) => cites(sourcesById.get(id))),
      surfaced: a.surfacedMemoryIds,
      retrievedCiting: a.retrievedMemoryIds.some((id) => cites(sourcesById.get(id))),
      ...citingRelevance(a, (id) => cites(sourcesById.get(id))),
      ...(a.reply !== undefined ? { reply: a.reply, answerPresent: answerPresent(a.item.answer, a.reply) } : {}),
    };
    if (a.item.category === TEMPORAL && o.covered) {
      temporal.covered++;
      const gold = goldSpan(a.item.answer, a.refMs);
      if (!gold) {
        o.temporal = 'not datable';
        temporal.notDatable++;
      } else {
        temporal.datable++;
        o.gold = gold;
        const dates = citing.map((m) => statedDateOf(m, input.statedDates)).filter((d): d is StatedDate => d !== undefined);
        o.statedDates = dates;
        const shifted = input.shift ? dates.map((d) => toDatasetDate(d, input.shift!)) : [];
        if (input.shift) o.datasetDates = shifted;
        const verdict = bestVerdict([...dates, ...shifted].map((d) => compareDate(d, gold))) ?? 'undated';
        o.temporal = verdict;
        temporal[verdict]++;
      }
    }
    add(total, o);
    add((byCategory[categoryName(a.item.category)] ??= emptyTally()), o);
    items.push(o);
  }

  return {
    sampleId: input.sampleId,
    user: input.user,
    memories: { active: input.kept.length, byType },
    precision,
    total,
    byCategory,
    temporal,
    items,
    offTopic,
  };
}

function sumInto<T extends object>(into: T, from: T): void {
  for (const k of Object.keys(from) as (keyof T)[]) (into[k] as number) += from[k] as number;
}

export interface RecallTotals {
  conversations: number;
  memories: { active: number; byType: Record<string, number> };
  precision: PrecisionTally;
  total: Tally;
  byCategory: Record<string, Tally>;
  temporal: TemporalTally;
}

/** The selected set's totals: every count summed (shares are computed from the sums, never averaged). */
export function totals(conversations: readonly ConversationRecall[]): RecallTotals {
  const out: RecallTotals = { conversations: conversations.length, memories: { active: 0, byType: {} }, precision: emptyPrecision(), total: emptyTally(), byCategory: {}, temporal: emptyTemporal() };
  for (const c of conversations) {
    out.memories.active += c.memories.active;
    for (const [k, v] of Object.entries(c.memories.byType)) out.memories.byType[k] = (out.memories.byType[k] ?? 0) + v;
    sumInto(out.precision, c.precision);
    sumInto(out.total, c.total);
    sumInto(out.temporal, c.temporal);
    for (const [k, v] of Object.entries(c.byCategory)) sumInto((out.byCategory[k] ??= emptyTally()), v);
  }
  return out;
}

/** n / of, or undefined for an empty denominator. */
export function share(n: number, of: number): number | undefined {
  return of > 0 ? n / of : undefined;
}

/** The four headline shares of a set (or one conversation). */
export function headline(t: { total: Tally; precision: PrecisionTally; temporal: TemporalTally }) {
  return {
    coverage: share(t.total.covered, t.total.items),
    surfacedRecall: share(t.total.surfacedCiting, t.total.items),
    surfacedPrecision: share(t.precision.sharing, t.precision.surfaced - t.precision.unknownValue),
    temporalDates: share(t.temporal.match, t.temporal.datable),
    answerPresence: share(t.total.answerPresent, t.total.answerChecked),
  };
}
