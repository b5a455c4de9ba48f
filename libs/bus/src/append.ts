import type { Bus, AppendResult } from './bus.js';
import { AppendConflictError, BusError } from './errors.js';
import type { EventDraft, StoredEvent } from './events.js';
import type { ServiceName } from './topology.js';

/**
 * The exactly-once append of ARCHITECTURE.md: read the subject's last event,
 * decide, append against its sequence; on a conflict read again and decide
 * again (bounded). Drafts must have ids derived from their cause, so a retry
 * after a crash is deduplicated by Msg-Id; and a decision whose cause already
 * produced the subject's last event is not appended twice even after the
 * dedup window.
 */
export async function appendDecided(
  bus: Bus,
  service: ServiceName,
  key: string,
  decide: (last: StoredEvent | null) => Promise<EventDraft[]> | EventDraft[],
  opts: { attempts?: number } = {},
): Promise<AppendResult[]> {
  const attempts = opts.attempts ?? 8;
  let lastErr: unknown;
  for (let i = 0; i < attempts; i++) {
    const last = await bus.lastOnSubject(service, key);
    const drafts = await decide(last);
    if (drafts.length === 0) return [];
    const reached = last ? drafts.findIndex((d) => d.id === last.id) : -1;
    // An earlier try got up to drafts[reached] onto the subject (a crash or a
    // failed publish between two events of one decision): append only the rest.
    const done = drafts.slice(0, reached + 1).map((d) => ({ id: d.id, seq: d.id === last?.id ? last.seq : 0, duplicate: true }));
    const rest = drafts.slice(reached + 1);
    if (rest.length === 0) return done;
    try {
      return [...done, ...(await bus.append(service, key, rest, last?.seq ?? 0))];
    } catch (err) {
      if (!(err instanceof AppendConflictError)) throw err;
      lastErr = err;
      await new Promise((r) => setTimeout(r, Math.min(5 * 2 ** i, 200) * Math.random()));
    }
  }
  throw new BusError('APPEND_RETRIES_EXHAUSTED', `could not append to ${service}/${key} after ${attempts} tries`, { cause: lastErr });
}
