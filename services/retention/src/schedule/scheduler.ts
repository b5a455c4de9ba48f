import { appendDecided, draft, isTransientError, type Bus, type EventDraft, type RunningConsumer } from '@hearth/bus';
import type { Clock } from '@hearth/clock';
import { deriveId, Events } from '@hearth/events';
import { startPoller, waitForCheckpoint, waitForPosition } from '@hearth/store';
import { counter, type Logger } from '@hearth/telemetry';
import { sql, type Kysely } from 'kysely';
import { RETENTION, SCHEDULER } from '../config.js';
import type { RetentionDb } from '../db.js';
import { dueIgnored, evaluateSlot, type Evaluation } from '../domain/eligibility.js';
import { floorHour } from '../domain/local-time.js';
import type { RetentionRecord, UserSnapshot } from '../domain/types.js';
import { caughtUp, recordsSettled } from '../handlers/wait.js';
import { retentionProjection } from '../projections/retention.js';
import { loadRecords, loadUser } from '../state.js';

const HOUR = RETENTION.cadenceMs;

export interface SchedulerDeps {
  bus: Bus;
  db: Kysely<RetentionDb>;
  clock: Clock;
  logger?: Logger;
}

/** What one pass did. */
export interface PassReport {
  users: number;
  hours: number;
  planned: number;
  ignored: number;
  /** Users whose evaluation failed; the next pass tries them again. */
  skipped: number;
}

const evaluations = counter('hearth_retention_evaluations_total', 'Hourly retention evaluations of one user (§14.0), by outcome: send or the first failed check');
const planned = counter('hearth_retention_planned_total', 'Proactive messages planned, by relationship stage');
const ignoredTotal = counter('hearth_retention_ignored_total', 'Delivered proactive messages recorded as ignored (§14.2)');
const skippedTotal = counter('hearth_retention_skipped_users_total', 'Users a pass could not evaluate (their evaluation threw); the next pass tries them again');

export function retentionIdFor(userId: string, slot: Date): string {
  return deriveId('retention', 'planned', userId, slot.toISOString());
}

/**
 * §14.0: evaluates every user once for each hour up to the current one on the
 * (virtual) clock, catching up the hours a jump of the clock or an outage
 * skipped, in order. Each user's progress is a `schedule` row that a replica
 * leases (one statement, SKIP LOCKED) before evaluating it and releases with
 * the new progress: with several replicas each user-hour is evaluated once. A
 * crash mid-way lets the lease run out, and the hours evaluated again append
 * nothing new (their events' ids derive from the user and the hour). No
 * transaction stays open meanwhile, which the single-connection embedded
 * database needs.
 */
export async function evaluateDueHours(
  deps: SchedulerDeps,
  opts: { replica: string; isStopping?: () => boolean; onUser?: (report: { userId: string; hours: number; ms: number }) => void },
): Promise<PassReport> {
  const { db } = deps;
  const current = floorHour(deps.clock.now());
  const report: PassReport = { users: 0, hours: 0, planned: 0, ignored: 0, skipped: 0 };
  // Users whose evaluation threw in this pass: released for the next pass, not leased again in this one.
  const skipped = new Set<string>();
  // Decide on what every stream held when the hour came due (new users, messages, controls, deliveries).
  await projectionCaughtUp(deps);
  const any = await db.selectFrom('schedule').select('user_id').where('evaluated_through', '<', current).limit(1).executeTakeFirst();
  if (!any) return report;
  for (;;) {
    if (opts.isStopping?.()) return report;
    const leased = await lease(db, opts.replica, current, skipped);
    for (const row of leased) {
      if (opts.isStopping?.()) {
        await release(db, opts.replica, row.user_id);
        continue;
      }
      try {
        const t0 = performance.now();
        const r = await evaluateUser(deps, row.user_id, row.evaluated_through ?? new Date(current.getTime() - HOUR), current);
        opts.onUser?.({ userId: row.user_id, hours: r.hours, ms: performance.now() - t0 });
        report.users++;
        report.hours += r.hours;
        report.planned += r.planned;
        report.ignored += r.ignored;
        await db
          .updateTable('schedule')
          .set({ evaluated_through: current, evaluations: sql<string>`evaluations + ${r.hours}`, claimed_by: null, claimed_until: null })
          .where('user_id', '=', row.user_id)
          .where('claimed_by', '=', opts.replica)
          .execute();
      } catch (err) {
        await release(db, opts.replica, row.user_id);
        // NATS or Postgres away fails every user alike: end the pass, the next poll retries it.
        if (isTransientError(err)) throw err;
        // One user's bad data must not keep the users after it from their messages.
        skipped.add(row.user_id);
        report.skipped++;
        skippedTotal.add(1);
        deps.logger?.error({ err, userId: row.user_id, replica: opts.replica }, 'retention evaluation of a user failed; skipped in this pass, retried at the next');
      }
    }
    if (leased.length < SCHEDULER.batchSize) return report;
  }
}

/** Leases up to a batch of users with hours due, skipping rows another replica is leasing right now and users this pass skipped. */
async function lease(db: Kysely<RetentionDb>, replica: string, current: Date, skipped: ReadonlySet<string>): Promise<{ user_id: string; evaluated_through: Date | null }[]> {
  return db
    .updateTable('schedule')
    .set({ claimed_by: replica, claimed_until: sql<Date>`now() + make_interval(secs => ${SCHEDULER.leaseSeconds})` })
    .where('user_id', 'in', (eb) =>
      eb
        .selectFrom('schedule')
        .select('user_id')
        .where('evaluated_through', '<', current)
        .where((w) => w.or([w('claimed_until', 'is', null), w('claimed_until', '<', sql<Date>`now()`)]))
        .$if(skipped.size > 0, (q) => q.where('user_id', 'not in', [...skipped]))
        .orderBy('user_id')
        .limit(SCHEDULER.batchSize)
        .forUpdate()
        .skipLocked(),
    )
    .returning(['user_id', 'evaluated_through'])
    .execute();
}

async function release(db: Kysely<RetentionDb>, replica: string, userId: string): Promise<void> {
  await db.updateTable('schedule').set({ claimed_by: null, claimed_until: null }).where('user_id', '=', userId).where('claimed_by', '=', replica).execute();
}

async function projectionCaughtUp(deps: SchedulerDeps): Promise<void> {
  const deadline = performance.now() + SCHEDULER.catchUpWaitMs;
  for (const source of retentionProjection.sources) {
    const target = await deps.bus.lastSeq(source);
    const stream = deps.bus.topology.stream(source);
    if (!(await waitForCheckpoint(deps.db, retentionProjection.name, stream, target, { timeoutMs: Math.max(0, deadline - performance.now()) }))) {
      deps.logger?.warn({ source, target }, 'retention projection is behind its sources; evaluating on what it holds');
      return;
    }
  }
}

/** The hours (from, to] of one user, in order. */
async function evaluateUser(deps: SchedulerDeps, userId: string, from: Date, to: Date): Promise<{ hours: number; planned: number; ignored: number }> {
  const out = { hours: 0, planned: 0, ignored: 0 };
  const gaveUp = new Set<string>();
  const subject = deps.bus.topology.subject('retention', userId);
  // The last sequence this pass appended on the user's chain (0: none yet).
  let ownSeq = 0;
  let user = await loadUser(deps.db, userId);
  if (!user) return out;
  let records = await loadRecords(deps.db, userId);
  const oldest = to.getTime() - SCHEDULER.maxCatchUpHours * HOUR;
  let first = from.getTime() + HOUR;
  if (first < oldest) {
    deps.logger?.warn({ userId, from: from.toISOString(), skippedHours: (oldest - first) / HOUR }, 'retention skips hours older than the catch-up limit');
    first = oldest;
  }
  for (let t = first; t <= to.getTime(); t += HOUR) {
    const slot = new Date(t);
    out.hours++;
    // A message planned 24 h ago is judged on its delivery: wait for the orchestrator's
    // word, once per message and pass (if the orchestrator is down, the next pass judges it).
    const waiting = (rs: RetentionRecord[]) => rs.some((r) => awaitsDelivery(r, slot) && !gaveUp.has(r.retentionId));
    const settle = async (): Promise<RetentionRecord[]> => {
      // Read back this pass's own events first, then the orchestrator's word on them.
      if (ownSeq > 0) await waitForPosition(deps.db, retentionProjection.name, subject, ownSeq, { timeoutMs: SCHEDULER.catchUpWaitMs });
      const settled = await recordsSettled(deps.db, userId, waiting);
      for (const r of settled) if (awaitsDelivery(r, slot)) gaveUp.add(r.retentionId);
      return settled;
    };
    if (waiting(records)) records = await settle();
    const quick = evaluateSlot(user, records, slot);
    if (dueIgnored(records, slot).length === 0 && !quick.send) {
      evaluations.add(1, { outcome: quick.reason });
      continue;
    }
    let decided: Evaluation = quick;
    let state: { user: UserSnapshot; after: RetentionRecord[] } | null = null;
    const appended = await appendDecided(deps.bus, 'retention', userId, async (last) => {
      await caughtUp(deps.db, last);
      const u = await loadUser(deps.db, userId);
      if (!u) return [];
      const current = await loadRecords(deps.db, userId);
      const hour = decideHour(u, waiting(current) ? await settle() : current, slot);
      decided = hour.evaluation;
      state = { user: u, after: hour.after };
      return hour.drafts;
    });
    evaluations.add(1, { outcome: decided.send ? 'send' : decided.reason });
    ownSeq = Math.max(ownSeq, ...appended.map((a) => a.seq));
    for (const a of appended.filter((x) => !x.duplicate)) {
      if (a.id === retentionIdFor(userId, slot)) {
        out.planned++;
        planned.add(1, { stage: decided.reading.stage });
        deps.logger?.info({ userId, slot: slot.toISOString(), retentionId: a.id, ...decided.reading }, 'proactive message planned');
      } else {
        out.ignored++;
        ignoredTotal.add(1);
      }
    }
    // The next hours go on from what this one decided, as the projection will hold it:
    // no wait for the projection here (a later append waits for it, when there is one).
    const decidedState = state as { user: UserSnapshot; after: RetentionRecord[] } | null;
    if (decidedState) {
      user = decidedState.user;
      records = decidedState.after;
    }
  }
  return out;
}

function awaitsDelivery(r: RetentionRecord, slot: Date): boolean {
  return r.declinedReason === null && r.deliveredAt === null && r.plannedAt !== null && r.plannedAt.getTime() + RETENTION.ignoredWindowHours * HOUR <= slot.getTime();
}

/**
 * One user-hour as events: first the messages whose 24 h ran out unanswered
 * (§14.2), then — with their backoff in force — the §14.0–§14.1 evaluation.
 * Every id derives from the user and the hour, so deciding again appends nothing new.
 */
export function decideHour(
  user: UserSnapshot,
  records: readonly RetentionRecord[],
  slot: Date,
): { drafts: EventDraft[]; evaluation: Evaluation; after: RetentionRecord[] } {
  const meta = (id: string) => ({ id, userId: user.userId, causationId: `retention-hour:${slot.toISOString()}`, correlationId: id, occurredAt: slot });
  const drafts: EventDraft[] = [];
  const after = [...records];
  for (const r of dueIgnored(records, slot)) {
    const multiplier = RETENTION.backoffFactor ** (1 + ignoredRunBefore(after, r));
    drafts.push(
      draft(
        Events.RetentionIgnored,
        { retentionId: r.retentionId, deliveredAt: r.deliveredAt!, deadline: new Date(r.deliveredAt!.getTime() + RETENTION.ignoredWindowHours * HOUR), backoffMultiplier: multiplier },
        meta(deriveId('retention', 'ignored', r.retentionId)),
      ),
    );
    after[after.indexOf(r)] = { ...r, outcome: 'ignored', resolvedAt: slot };
  }
  const evaluation = evaluateSlot(user, after, slot);
  if (evaluation.send) {
    const retentionId = retentionIdFor(user.userId, slot);
    const notificationId = deriveId('retention', 'notification', retentionId);
    drafts.push(
      draft(
        Events.RetentionPlanned,
        { retentionId, notificationId, conversationId: user.conversationId!, aiFriendId: user.aiFriendId, slot, eligibility: evaluation.reading },
        meta(retentionId),
      ),
    );
    after.unshift({
      retentionId,
      notificationId,
      conversationId: user.conversationId!,
      plannedAt: slot,
      deliveredAt: null,
      declinedReason: null,
      outcome: '',
      acknowledgedVia: null,
      resolvedAt: null,
    });
  }
  return { drafts, evaluation, after };
}

/** Ignored messages in a row just before `r` (most recent first), for the multiplier an ignore brings. */
function ignoredRunBefore(records: readonly RetentionRecord[], r: RetentionRecord): number {
  const sentAt = (x: RetentionRecord) => (x.deliveredAt ?? x.plannedAt)!.getTime();
  const before = records
    .filter((x) => x !== r && x.declinedReason === null && (x.deliveredAt ?? x.plannedAt) !== null && sentAt(x) < sentAt(r))
    .sort((a, b) => sentAt(b) - sentAt(a));
  let run = 0;
  for (const x of before) {
    if (x.outcome !== 'ignored') break;
    run++;
  }
  return run;
}

/**
 * Runs {@link evaluateDueHours} every `pollMs` until stopped: cheap when no hour
 * is due (one indexed query), and quick to notice a jump of the virtual clock.
 * Shaped as a consumer so that the host's readiness and shutdown cover it.
 */
export function startScheduler(deps: SchedulerDeps & { pollMs: number; replica: string }): RunningConsumer {
  return startPoller({
    name: 'retention-scheduler',
    pollMs: deps.pollMs,
    pass: (isStopping) => evaluateDueHours(deps, { replica: deps.replica, isStopping }),
    worthLogging: (r) => r.users > 0 || r.skipped > 0,
    async lag() {
      const current = floorHour(deps.clock.now());
      const row = await deps.db.selectFrom('schedule').select((eb) => eb.fn.countAll<string>().as('n')).where('evaluated_through', '<', current).executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    ...(deps.logger ? { logger: deps.logger } : {}),
    messages: { done: 'retention hours evaluated', failed: 'retention evaluation failed; retrying at the next poll' },
  });
}
