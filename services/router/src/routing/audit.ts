import type { TurnRouted } from '@hearth/events';
import { isUserState, routeTurn, type RouteOptions, type Routed } from './route.js';

/** What a turn's routing is decided from: the fields TurnReceived and TurnRouted share. */
export type RoutedInput = Pick<
  TurnRouted,
  'messageId' | 'conversationId' | 'userState' | 'text' | 'aiFriendId' | 'source' | 'ageBand' | 'activatesUser' | 'missingOnboarding'
>;

/** The TurnRouted payload of a routing decision: what the router records, and what an audit replay compares. */
export function turnRoutedOf(turn: RoutedInput, routed: Routed): TurnRouted {
  const { decision, flags, preprocessed: pre } = routed;
  return {
    messageId: turn.messageId,
    conversationId: turn.conversationId,
    decision: {
      pipeline: decision.pipeline,
      safetyPolicy: decision.safety_policy,
      memoryReadPolicy: decision.memory_read_policy,
      vectorSearchPolicy: decision.vector_search_policy,
      memoryWritePolicy: decision.memory_write_policy,
      relationshipUpdatePolicy: decision.relationship_update_policy,
      retentionPolicy: '',
      retrievalQueryText: decision.retrieval_query_text,
      notes: decision.notes,
      safetyReason: decision.safety_reason,
      crisisSafe: decision.crisis_safe,
    },
    flags,
    topicMatches: pre.topicMatches.map((t) => ({ topicId: t.topicId, confidence: t.confidence, keywords: t.keywords })),
    userState: turn.userState,
    text: turn.text,
    aiFriendId: turn.aiFriendId,
    source: turn.source,
    userTextNorm: pre.userTextNorm,
    normNoPunct: pre.normNoPunct,
    tokenEstimate: pre.tokenEstimate,
    heuristicFlags: Object.entries(pre.heuristicFlags)
      .filter(([, on]) => on)
      .map(([name]) => name),
    ageBand: turn.ageBand,
    activatesUser: turn.activatesUser,
    missingOnboarding: turn.missingOnboarding,
  };
}

/** One recorded field that today's router decides differently. */
export interface FieldChange {
  /** `decision.pipeline`, `flags`, `topicMatches`, … */
  field: string;
  before: unknown;
  after: unknown;
}

/**
 * Decides a recorded turn again with today's router (and, to try a change
 * before shipping it, other lexicons) and names every field of its TurnRouted
 * that would differ. Pure: the recorded inputs are all it reads.
 */
export function reRoute(recorded: TurnRouted, options: RouteOptions = {}): FieldChange[] {
  if (!isUserState(recorded.userState)) {
    return [{ field: 'userState', before: recorded.userState, after: 'not a user state the router accepts' }];
  }
  const now = turnRoutedOf(
    recorded,
    routeTurn(
      {
        userState: recorded.userState,
        text: recorded.text,
        source: recorded.source === 'retention' ? 'retention' : 'chat',
        ageBand: recorded.ageBand,
        activatesUser: recorded.activatesUser,
        missingOnboarding: recorded.missingOnboarding,
      },
      options,
    ),
  );
  const changes: FieldChange[] = [];
  const compare = (field: string, before: unknown, after: unknown): void => {
    if (JSON.stringify(before) !== JSON.stringify(after)) changes.push({ field, before, after });
  };
  const before = recorded.decision;
  for (const [key, after] of Object.entries(now.decision ?? {})) {
    compare(`decision.${key}`, before?.[key as keyof typeof before], after);
  }
  for (const key of ['flags', 'topicMatches', 'userTextNorm', 'normNoPunct', 'tokenEstimate', 'heuristicFlags'] as const) {
    compare(key, recorded[key], now[key]);
  }
  return changes;
}
