import { RETENTION, type Stage } from '../config.js';
import { isTimeZone, localTime } from './local-time.js';
import type { RetentionRecord, UserSnapshot } from './types.js';

const HOUR = 3_600_000;

/** Why an hour's evaluation sent nothing, in the order the checks run. */
export type SkipReason =
  | 'not_active'
  | 'no_conversation'
  | 'proactive_disabled'
  | 'muted'
  | 'stage_cap_zero'
  | 'invalid_timezone'
  | 'quiet_hours'
  | 'outside_attempt_window'
  | 'too_recent'
  | 'cap_reached';

/** What one evaluation measured (RetentionPlanned.eligibility when it sends). */
export interface EligibilityReading {
  stage: Stage;
  timezone: string;
  localTime: string;
  inactiveHours: number;
  minInactiveHours: number;
  backoffMultiplier: number;
  cap: number;
  capWindowHours: number;
  sentInWindow: number;
}

export type Evaluation = { send: true; reading: EligibilityReading } | { send: false; reason: SkipReason; reading: EligibilityReading };

/** A proactive message counts (caps, waits) unless the orchestrator declined it. */
function counts(r: RetentionRecord): boolean {
  return r.declinedReason === null;
}

/** When the message went out: delivered, else the hour that planned it. */
function sentAt(r: RetentionRecord): Date | null {
  return r.deliveredAt ?? r.plannedAt;
}

/** The counted messages sent at or before `at`, newest first. */
function sentBy(records: readonly RetentionRecord[], at: Date): RetentionRecord[] {
  return records
    .filter((r) => counts(r) && sentAt(r) !== null && sentAt(r)!.getTime() <= at.getTime())
    .sort((a, b) => sentAt(b)!.getTime() - sentAt(a)!.getTime() || b.retentionId.localeCompare(a.retentionId));
}

/**
 * §14.0, §14.2: the backoff in force at `at` — ×2 for each ignored message in a
 * row, counting back from the most recent one (an acknowledged or still
 * pending message ends the run).
 */
export function backoffAt(records: readonly RetentionRecord[], at: Date): { streak: number; multiplier: number } {
  let streak = 0;
  for (const r of sentBy(records, at)) {
    if (r.outcome !== 'ignored' || r.resolvedAt === null || r.resolvedAt.getTime() > at.getTime()) break;
    streak++;
  }
  return { streak, multiplier: RETENTION.backoffFactor ** streak };
}

/**
 * §14.0–§14.1: may the hour starting at `slot` send this user a proactive
 * message? Pure: the same user, records and slot always give the same answer.
 */
export function evaluateSlot(user: UserSnapshot, records: readonly RetentionRecord[], slot: Date): Evaluation {
  const stage = user.stage;
  const { cap, windowHours } = RETENTION.caps[stage];
  const sent = sentBy(records, slot);
  const { multiplier } = backoffAt(records, slot);
  const minInactiveHours = RETENTION.minInactiveHours[stage] * multiplier;
  const lastSent = sent[0] ? sentAt(sent[0])!.getTime() : -Infinity;
  const since = Math.max(user.lastInteractionAt?.getTime() ?? -Infinity, lastSent);
  const windowStart = slot.getTime() - windowHours * HOUR;
  const reading: EligibilityReading = {
    stage,
    timezone: user.timezone,
    localTime: isTimeZone(user.timezone) ? localTime(slot, user.timezone).label : '',
    inactiveHours: Number.isFinite(since) ? (slot.getTime() - since) / HOUR : 0,
    minInactiveHours,
    backoffMultiplier: multiplier,
    cap,
    capWindowHours: windowHours,
    sentInWindow: sent.filter((r) => sentAt(r)!.getTime() > windowStart).length,
  };
  const skip = (reason: SkipReason): Evaluation => ({ send: false, reason, reading });

  if (user.userState !== 'ACTIVE' || user.lastInteractionAt === null) return skip('not_active');
  if (!user.conversationId) return skip('no_conversation');
  if (!user.proactiveEnabled) return skip('proactive_disabled');
  // §14.1: muted until mute_until has passed (now > mute_until).
  if (user.muteUntil !== null && slot.getTime() <= user.muteUntil.getTime()) return skip('muted');
  if (cap === 0) return skip('stage_cap_zero');
  if (!isTimeZone(user.timezone)) return skip('invalid_timezone');
  const local = localTime(slot, user.timezone).minuteOfDay;
  const { quietHours: q, attemptWindow: w } = RETENTION;
  if (local >= q.startMinute && local < q.endMinute) return skip('quiet_hours');
  if (local < w.startMinute || local >= w.endMinute) return skip('outside_attempt_window');
  if (reading.inactiveHours < minInactiveHours) return skip('too_recent');
  if (reading.sentInWindow >= cap) return skip('cap_reached');
  return { send: true, reading };
}

/**
 * §14.2: delivered messages whose 24 h passed by `slot` with neither a reply
 * nor an attributed app open — to be recorded as ignored, oldest first.
 */
export function dueIgnored(records: readonly RetentionRecord[], slot: Date): RetentionRecord[] {
  const window = RETENTION.ignoredWindowHours * HOUR;
  return records
    .filter((r) => counts(r) && r.outcome === '' && r.deliveredAt !== null && r.deliveredAt.getTime() + window <= slot.getTime())
    .sort((a, b) => a.deliveredAt!.getTime() - b.deliveredAt!.getTime());
}

/** Planned messages whose 24 h would have passed by `slot` but whose delivery is not known yet. */
export function awaitingDelivery(records: readonly RetentionRecord[], slot: Date): RetentionRecord[] {
  const window = RETENTION.ignoredWindowHours * HOUR;
  return records.filter((r) => counts(r) && r.deliveredAt === null && r.plannedAt !== null && r.plannedAt.getTime() + window <= slot.getTime());
}

/** Whether `at` lies within the 24 h after the message was delivered. */
function withinWindow(r: RetentionRecord, at: Date): boolean {
  if (r.deliveredAt === null) return false;
  const d = r.deliveredAt.getTime();
  return at.getTime() >= d && at.getTime() <= d + RETENTION.ignoredWindowHours * HOUR;
}

/** §14.2 A: the unresolved messages a user message in `conversationId` at `at` replies to. */
export function repliedTo(records: readonly RetentionRecord[], conversationId: string, at: Date): RetentionRecord[] {
  return records.filter((r) => counts(r) && r.outcome === '' && r.conversationId === conversationId && withinWindow(r, at));
}

export type AttributionRule = 'notification' | 'single' | 'none';

/**
 * §14.2 C: the message an app open at `at` is attributed to — by its
 * notification id (C1), else the single message delivered in the last 24 h
 * (C2), else none (C3).
 */
export function attributeAppOpen(
  records: readonly RetentionRecord[],
  openedNotificationId: string,
  at: Date,
): { rule: AttributionRule; record: RetentionRecord | null } {
  const delivered = records.filter((r) => counts(r) && withinWindow(r, at));
  if (openedNotificationId) {
    const match = delivered.find((r) => r.notificationId === openedNotificationId);
    if (match) return { rule: 'notification', record: match };
  }
  if (delivered.length === 1) return { rule: 'single', record: delivered[0]! };
  return { rule: 'none', record: null };
}
