import { detectTopics, normalizeUserText, type TopicId } from '@hearth/text';
import { UNSOLICITED_LOOKBACK_USER_MESSAGES } from '../config.js';
import type { GateVerdict } from './verdict.js';

/** The TopicIDs a reply mentions: `detectTopics` on its norm_no_punct, where any keyword hit counts. */
export function replyTopics(text: string): TopicId[] {
  return detectTopics(normalizeUserText(text).normNoPunct).map((m) => m.topicId);
}

/**
 * The topics user-initiated in the current message or either of the previous 2
 * (§2.8 "unsolicited mention"), from each message's user-initiated topics,
 * newest first.
 */
export function initiatedWithin(initiatedByMessage: readonly (readonly string[])[]): string[] {
  return [...new Set(initiatedByMessage.slice(0, 1 + UNSOLICITED_LOOKBACK_USER_MESSAGES).flat())];
}

export interface TabooContext {
  /** UserControls.suppressed_topics. */
  suppressed: readonly string[];
  /** PersonaTemplate.taboo_soft_bounds. */
  tabooSoft: readonly string[];
  /** User-initiated in the current message. */
  initiatedNow: readonly string[];
  /** User-initiated in the current or the previous 2 user messages. */
  initiatedRecent: readonly string[];
}

/**
 * §2.8 and §14.3: a reply may mention a suppressed topic only when the user
 * initiated it in this very message, and a taboo_soft_bounds topic only when the
 * user initiated it in this or the previous 2 messages.
 */
export function tabooGate(text: string, ctx: TabooContext): GateVerdict {
  const mentioned = replyTopics(text);
  const now = new Set(ctx.initiatedNow);
  // The current message is part of the recent window whether or not the caller listed it there.
  const recent = new Set([...ctx.initiatedRecent, ...ctx.initiatedNow]);
  const suppressed = mentioned.filter((t) => ctx.suppressed.includes(t) && !now.has(t));
  const taboo = mentioned.filter((t) => ctx.tabooSoft.includes(t) && !recent.has(t));
  const problems: string[] = [];
  if (suppressed.length > 0) problems.push(`suppressed topics [${suppressed.join(', ')}] not initiated this turn`);
  if (taboo.length > 0) problems.push(`taboo topics [${taboo.join(', ')}] not initiated in the last 3 user messages`);
  return {
    gate: 'taboo_topics',
    pass: problems.length === 0,
    detail: problems.length === 0 ? `mentions [${mentioned.join(', ')}], none unsolicited` : problems.join('; '),
    measured: { mentioned: mentioned.join(','), suppressed: suppressed.join(','), taboo: taboo.join(',') },
  };
}
