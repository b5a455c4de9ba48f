import { isUuid } from '@hearth/events';
import { uncertainty } from '@hearth/proto';
import type { CheckDecision } from '@hearth/uncertainty';
import { runCheck, type CheckDeps } from '../handlers/check.js';
import { reliabilityFor } from './check-reliability.js';

/**
 * CheckMessage (Context 1 + Context 3 for a chat turn), asked by the orchestrator
 * before it writes the reply and time-boxed on its side: the check is decided and
 * appended here, and the answer says what the reply may not assert and what it
 * should ask about.
 */
export function createCheckMessageCommand(deps: CheckDeps): (request: uncertainty.CheckMessageRequest) => Promise<uncertainty.CheckMessageResponse> {
  return async (request) => {
    const started = performance.now();
    const r = request;
    for (const [name, v] of [['user_id', r.userId], ['message_id', r.messageId]] as const) {
      if (!isUuid(v)) throw new Error(`CheckMessageRequest.${name} must be a uuid, got ${JSON.stringify(v.slice(0, 64))}`);
    }
    if (r.answersUncertaintyId && !isUuid(r.answersUncertaintyId)) throw new Error('CheckMessageRequest.answers_uncertainty_id must be a uuid or empty');
    const at = r.at ?? new Date(0);
    const decision = await runCheck(deps, {
      userId: r.userId,
      messageId: r.messageId,
      conversationId: r.conversationId,
      text: r.text,
      afterMessageId: r.afterMessageId,
      answersUncertaintyId: r.answersUncertaintyId,
      at,
      late: false,
      causationId: r.messageId,
    });
    const reliability = await reliabilityFor(deps.db, r.userId, r.memoryIds.filter(isUuid));
    return responseOf(decision, reliability, Math.round(performance.now() - started));
  };
}

function responseOf(d: CheckDecision, reliability: uncertainty.MemoryReliability[], latencyMs: number): uncertainty.CheckMessageResponse {
  return {
    verdict: d.verdict,
    contradictedMemoryIds: d.contradictedMemoryIds,
    reliability,
    surface: d.surface
      ? {
          uncertaintyId: d.surface.uncertaintyId,
          reason: d.surface.reason,
          memoryKey: d.surface.key,
          heldValue: d.surface.heldValue,
          statedValue: d.surface.statedValue,
          severity: d.surface.severity,
          surfacedCount: d.surface.surfacedCount,
          usedPhrasingIds: [...d.surface.usedPhrasingIds],
        }
      : undefined,
    latencyMs,
  };
}
