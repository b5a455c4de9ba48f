import { SENSITIVE_TOPICS } from '../config.js';
import type { ReplySource } from './facts.js';
import {
  RETENTION_FACT_ALLOWLIST,
  RETENTION_SENSITIVE_EVENT_DOMAINS,
  RETENTION_SENSITIVE_EVENT_TOPICS,
  RETENTION_SENSITIVE_FACT_KEYS,
} from './lists.js';
import type { GateVerdict } from './verdict.js';

/** A memory the reply surfaces (its id is in surfaced_memory_ids), with what §14.6 needs to classify it. */
export interface SurfacedMemory {
  memoryId: string;
  /** FACT | PREFERENCE | RELATIONSHIP_EVENT | EMOTIONAL_PATTERN (turn-pipeline §2.6). */
  type: string;
  /** Canonical memory_key (§12.3.1). */
  key: string;
  value: string;
  topicIds: string[];
}

const SENSITIVE: ReadonlySet<string> = new Set(SENSITIVE_TOPICS);

/** `event:<domain>:<yyyy_mm>:<slug>` → domain; null when the key has another shape. */
function eventDomain(key: string): string | null {
  const parts = key.split(':');
  return parts.length >= 3 && parts[0] === 'event' ? (parts[1] ?? null) : null;
}

/**
 * The §14.6 sensitive TopicIDs a memory is tied to: its own sensitive topicIds,
 * plus MEDICAL_HEALTH for an `event:health:…` key (the health domain is that topic).
 */
export function sensitiveTopicsOf(m: SurfacedMemory): string[] {
  const topics = m.topicIds.filter((t) => SENSITIVE.has(t));
  if (eventDomain(m.key) === 'health' && !topics.includes('MEDICAL_HEALTH')) topics.push('MEDICAL_HEALTH');
  return topics;
}

/** Why a memory is sensitive in `mode`, or null when it is not (§14.6). */
export function sensitiveReason(m: SurfacedMemory, mode: ReplySource): string | null {
  const topics = sensitiveTopicsOf(m);
  if (topics.length > 0) return `sensitive topic ${topics.join(',')}`;
  if (mode === 'chat') return null;
  switch (m.type) {
    case 'EMOTIONAL_PATTERN':
      return 'EMOTIONAL_PATTERN';
    case 'RELATIONSHIP_EVENT': {
      const domain = eventDomain(m.key);
      // A key without a readable domain is treated as sensitive: retention fails closed.
      if (domain === null) return 'RELATIONSHIP_EVENT without a domain';
      if (RETENTION_SENSITIVE_EVENT_DOMAINS.includes(domain)) return `RELATIONSHIP_EVENT domain ${domain}`;
      const topic = m.topicIds.find((t) => RETENTION_SENSITIVE_EVENT_TOPICS.includes(t));
      return topic === undefined ? null : `RELATIONSHIP_EVENT topic ${topic}`;
    }
    case 'FACT':
      if (RETENTION_SENSITIVE_FACT_KEYS.includes(m.key)) return `FACT ${m.key}`;
      return RETENTION_FACT_ALLOWLIST.includes(m.key) ? null : `FACT ${m.key} not in the retention allowlist`;
    default:
      return null;
  }
}

/**
 * §14.6: chat — tied to a sensitive TopicID; retention — also every
 * EMOTIONAL_PATTERN, a RELATIONSHIP_EVENT about a relationship, family or health,
 * fact:home_city / fact:current_city and any FACT key outside the allowlist.
 */
export function isSensitive(m: SurfacedMemory, mode: ReplySource): boolean {
  return sensitiveReason(m, mode) !== null;
}

/**
 * §10 item 5 and §14.6: no sensitive memory uninvited. In chat a sensitive memory
 * may be surfaced only when one of its sensitive topics is user-initiated this
 * turn; in retention never.
 */
export function sensitiveGate(surfaced: readonly SurfacedMemory[], userInitiated: readonly string[], mode: ReplySource): GateVerdict {
  const initiated = new Set(userInitiated);
  const sensitive: string[] = [];
  const violations: string[] = [];
  for (const m of surfaced) {
    const reason = sensitiveReason(m, mode);
    if (reason === null) continue;
    sensitive.push(m.memoryId);
    const invited = mode === 'chat' && sensitiveTopicsOf(m).some((t) => initiated.has(t));
    if (!invited) violations.push(`${m.memoryId} (${reason})`);
  }
  return {
    gate: 'sensitive_memories',
    pass: violations.length === 0,
    detail: violations.length === 0 ? `${sensitive.length} sensitive memories, none uninvited (${mode})` : `uninvited sensitive memories: ${violations.join('; ')} (${mode})`,
    measured: { mode, surfaced: surfaced.length, sensitive: sensitive.join(','), violations: violations.length },
  };
}
