import { deriveId } from '@hearth/events';
import type { Horizon } from '@hearth/trust';

// Every id trust appends derives from its cause, so deciding again (a redelivered
// turn, a second scheduler replica) appends nothing new.

export const feedbackRecordedId = (messageId: string): string => deriveId('trust', 'feedback', messageId);
export const tagId = (messageId: string, index: number): string => deriveId('trust', 'tag', messageId, index);
export const decisionId = (messageId: string, beliefId: string): string => deriveId('trust', 'decision', messageId, beliefId);
/** The GardenerDecided (action challenge) of a belief challenge, as the reactor appends it and the projection names it. */
export const challengeDecisionId = (challengeId: string): string => deriveId('trust', 'challenge-decision', challengeId);
/** The pending outcome GardenerDecided opens, as the projection names it and OutcomeEvaluated carries it. */
export const outcomeId = (decisionId: string, horizon: Horizon): string => deriveId('trust', 'outcome', decisionId, horizon);
export const trustUpdatedId = (outcomeId: string, actor: string): string => deriveId('trust', 'trust-updated', outcomeId, actor);
