import { containsAny } from '@hearth/text';

/** §7.1 step 3: phrases of a follow-up that needs earlier context ("how did it go?"). */
export const CONTEXT_FOLLOWUP_PHRASES = [
  'how did it go',
  'what happened with',
  'what about that',
  'the one i mentioned',
  'that thing',
  'as i said',
  'what i told you',
  '그거',
  '그때',
  '어떻게 됐',
] as const;

export type VectorTrigger = 'recall_reference' | 'followup_needs_context' | 'low_topic_continuity';

/**
 * §7.1 step 3: vector retrieval runs only ON_DEMAND, and only when one of the
 * three triggers fires: the user refers to what was said before; a question
 * that leans on earlier context; or a topic the last two messages did not have
 * while the conversation has recent turns (continuity low).
 */
export function vectorTriggers(input: {
  normNoPunct: string;
  isQuestion: boolean;
  recallAsked: boolean;
  topicsNow: readonly string[];
  topicsBefore: readonly string[];
  hasRecentTurns: boolean;
}): VectorTrigger[] {
  const out: VectorTrigger[] = [];
  if (input.recallAsked) out.push('recall_reference');
  if (input.isQuestion && containsAny(input.normNoPunct, CONTEXT_FOLLOWUP_PHRASES).length > 0) out.push('followup_needs_context');
  if (input.hasRecentTurns && input.topicsNow.length > 0 && !input.topicsNow.some((t) => input.topicsBefore.includes(t))) out.push('low_topic_continuity');
  return out;
}
