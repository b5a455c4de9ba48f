import { DeliverPolicy, type JetStreamClient } from '@nats-io/jetstream';
import { decodeEnvelope, type Topology } from '@hearth/bus';
import { Events } from '@hearth/events';
import { summarize, type Summary } from './stats.js';

/** When the client sent a turn and got its reply, in wall-clock ms (sub-ms precision). */
export interface TurnTiming {
  messageId: string;
  startMs: number;
  endMs: number;
}

/** Wall-clock ms now, with the monotonic clock's precision. */
export const wallNowMs = (): number => performance.timeOrigin + performance.now();

/**
 * Where a turn's time goes, from the server timestamps JetStream gives each
 * stored event (the same host's clock as the client's): request → TurnReceived
 * stored → TurnRouted stored → TurnCompleted stored → reply at the client.
 */
export interface PhaseBreakdown {
  turns: number;
  /** HTTP, auth, the reads before the append, get-last, publish of TurnReceived. */
  requestToReceived: Summary;
  /** Delivery to the router, its position read, get-last, publish of TurnRouted. */
  receivedToRouted: Summary;
  /** Delivery to the orchestrator, its reads, get-last, publish of TurnCompleted. */
  routedToCompleted: Summary;
  /** Delivery to ingress's turns projection, its transaction, the wake-up, the reply read, HTTP. */
  completedToReply: Summary;
}

const TIMED_TYPES: Record<string, 'received' | 'routed' | 'completed'> = {
  [Events.TurnReceived.name]: 'received',
  [Events.TurnRouted.name]: 'routed',
  [Events.TurnCompleted.name]: 'completed',
};

/**
 * Reads the events appended between two sequences of the three streams a turn
 * touches (ordered consumers, bounded by `timeoutMs`) and splits each timed
 * turn into its phases. Events are matched by correlation id = message_id.
 */
export async function turnPhases(
  js: JetStreamClient,
  topology: Topology,
  ranges: Map<string, { from: number; to: number }>,
  timings: readonly TurnTiming[],
  timeoutMs = 20_000,
): Promise<PhaseBreakdown | undefined> {
  const stamps = new Map<string, Partial<Record<'received' | 'routed' | 'completed', number>>>();
  const deadline = performance.now() + timeoutMs;
  for (const service of ['ingress', 'router', 'orchestrator'] as const) {
    const stream = topology.stream(service);
    const range = ranges.get(stream);
    if (!range || range.to < range.from) continue;
    const consumer = await js.consumers.get(stream, { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: range.from });
    const messages = await consumer.consume({ max_messages: 500 });
    const timer = setTimeout(() => messages.stop(), Math.max(1, deadline - performance.now()));
    try {
      for await (const m of messages) {
        const e = decodeEnvelope(m.data, { stream, subject: m.subject, seq: m.seq });
        const kind = TIMED_TYPES[e.type];
        if (kind && e.correlationId) {
          const s = stamps.get(e.correlationId) ?? {};
          s[kind] = Number(m.timestampNanos / 1000n) / 1000;
          stamps.set(e.correlationId, s);
        }
        if (m.seq >= range.to) break;
      }
    } finally {
      clearTimeout(timer);
      messages.stop();
      await consumer.delete().catch(() => undefined);
    }
  }
  const phases = { requestToReceived: [] as number[], receivedToRouted: [] as number[], routedToCompleted: [] as number[], completedToReply: [] as number[] };
  for (const t of timings) {
    const s = stamps.get(t.messageId);
    if (s?.received === undefined || s.routed === undefined || s.completed === undefined) continue;
    phases.requestToReceived.push(s.received - t.startMs);
    phases.receivedToRouted.push(s.routed - s.received);
    phases.routedToCompleted.push(s.completed - s.routed);
    phases.completedToReply.push(t.endMs - s.completed);
  }
  if (phases.requestToReceived.length === 0) return undefined;
  return {
    turns: phases.requestToReceived.length,
    requestToReceived: summarize(phases.requestToReceived),
    receivedToRouted: summarize(phases.receivedToRouted),
    routedToCompleted: summarize(phases.routedToCompleted),
    completedToReply: summarize(phases.completedToReply),
  };
}
