import { GATES } from '../config.js';
import { RECALL_PHRASES } from './lists.js';
import { findTerms } from './match.js';
import type { GateVerdict } from './verdict.js';

export type ReplySource = 'chat' | 'retention';

/** §10.1: the user explicitly asked for recall in this message ("remember / you said / last time", RECALL_PHRASES). */
export function recallAsked(normNoPunct: string): boolean {
  return findTerms(normNoPunct, RECALL_PHRASES).length > 0;
}

/**
 * §10.1: personal_fact_count = DISTINCT memory ids surfaced. Chat allows 2
 * unless the user asked for recall this turn; retention allows 1, always.
 */
export function personalFactsGate(surfacedIds: readonly string[], ctx: { source: ReplySource; recallAsked: boolean }): GateVerdict {
  const count = new Set(surfacedIds).size;
  const limit = ctx.source === 'retention' ? GATES.personalFacts.retention : ctx.recallAsked ? null : GATES.personalFacts.chat;
  const pass = limit === null || count <= limit;
  const bound = limit === null ? 'no limit (recall asked)' : `limit ${limit}`;
  return {
    gate: 'personal_facts',
    pass,
    detail: `personal_fact_count ${count}, ${bound} (${ctx.source})`,
    measured: { personal_fact_count: count, limit: limit ?? 'none', source: ctx.source, recall_asked: ctx.recallAsked ? 1 : 0 },
  };
}
