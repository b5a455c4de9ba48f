import { deadLetterKey as keyOf, type DeadLetterEntry } from '@hearth/bus';

/** Why a turn will not complete: an event of it that a service quarantined. */
export interface TurnFailure {
  eventId: string;
  service: string;
}

/**
 * The turns a quarantine stopped, by correlation id (a chat turn's message_id):
 * a request waiting for such a turn gets a definite answer instead of waiting
 * out its timeout, and so does a client that retries it. Fed from the
 * dead-letter stream (read at start, then followed live); a redrive lifts it.
 */
export class FailedTurns {
  private readonly byKey = new Map<string, DeadLetterEntry>();
  private readonly byTurn = new Map<string, Set<string>>();

  /** Adds a dead letter (a redriven one lifts its earlier entry). */
  add(entry: DeadLetterEntry): void {
    const key = keyOf(entry.consumer, entry.stream, entry.streamSeq);
    if (entry.redriven) {
      this.lift(entry.consumer, entry.stream, entry.streamSeq);
      return;
    }
    if (!entry.correlationId) return;
    this.byKey.set(key, entry);
    const set = this.byTurn.get(entry.correlationId) ?? new Set();
    set.add(key);
    this.byTurn.set(entry.correlationId, set);
  }

  /** A consumer applied its dead letter after all. Returns the turn it belonged to. */
  lift(consumer: string, stream: string, seq: number): string | undefined {
    const key = keyOf(consumer, stream, seq);
    const entry = this.byKey.get(key);
    if (!entry) return undefined;
    this.byKey.delete(key);
    const set = this.byTurn.get(entry.correlationId);
    set?.delete(key);
    if (set?.size === 0) this.byTurn.delete(entry.correlationId);
    return entry.correlationId;
  }

  /** The first quarantined event of this turn, if any. */
  failureOf(correlationId: string): TurnFailure | undefined {
    const first = [...(this.byTurn.get(correlationId) ?? [])][0];
    const entry = first ? this.byKey.get(first) : undefined;
    return entry && { eventId: entry.eventId, service: entry.service };
  }
}
