import { appendDecided, isTransientError, type Bus, type RunningConsumer } from '@hearth/bus';
import type { Clock } from '@hearth/clock';
import { requirePosition, startPoller, waitForCheckpoint, waitForPosition } from '@hearth/store';
import { counter, type Logger } from '@hearth/telemetry';
import type { belief } from '@hearth/proto';
import { anchorsOf, coherenceOf, decisionCoherence, TRUST_CONFIG, type AnswerSignal, type BeliefView, type FeedbackEntry, type Horizon, type OutcomeInputs } from '@hearth/trust';
import { sql, type Kysely } from 'kysely';
import { beliefViewOf, decisionOf, loadActors, loadFeedback, userBeliefOf } from '../adapters/state.js';
import { SCHEDULER, SERVICE } from '../config.js';
import type { TrustDb } from '../db.js';
import { outcomeDrafts } from '../handlers/drafts.js';
import { decideOutcome } from '../outcomes/outcome.js';
import { trustProjection } from '../projections/trust.js';

export interface SchedulerDeps {
  bus: Bus;
  db: Kysely<TrustDb>;
  clock: Clock;
  /** belief-graph's queries, one client for the process (adapters/beliefs.ts). */
  beliefGraph: belief.BeliefQueries;
  logger?: Logger;
}

/** What one pass did. */
export interface PassReport {
  users: number;
  /** Outcomes evaluated (OutcomeEvaluated appended by this replica). */
  outcomes: number;
  trustUpdates: number;
  /** Users whose evaluation failed; the next pass tries them again. */
  skipped: number;
}

const outcomesTotal = counter('hearth_trust_outcomes_total', 'Gardener decisions judged at a horizon (§2 OutcomeEvaluator), by horizon');
const updatesTotal = counter('hearth_trust_updates_total', 'EWMA steps of T_actor (§1 ProvenanceTrust), by actor');
const skippedTotal = counter('hearth_trust_skipped_users_total', 'Users a pass could not evaluate (their evaluation threw); the next pass tries them again');

/**
 * §2 Delayed Outcome Evaluation on the (virtual) clock: every pending outcome
 * whose horizon has passed is judged once, in due order per user, and moves
 * T_actor. Each user's `schedule` row is leased by one replica at a time (one
 * statement, SKIP LOCKED) and released; the projection keeps its next due
 * time (from the events this replica appended); the appends
 * derive their ids from the outcome, so a lease that ran out and a second
 * replica append nothing new. No transaction stays open meanwhile.
 */
export async function evaluateDueOutcomes(deps: SchedulerDeps, opts: { replica: string; isStopping?: () => boolean }): Promise<PassReport> {
  const { db } = deps;
  const now = deps.clock.now();
  const report: PassReport = { users: 0, outcomes: 0, trustUpdates: 0, skipped: 0 };
  // Users still due after their release in this pass (skipped, or their projection behind): not
  // leased again in it. A user done is not due any more, so the lease's own filter passes it over.
  const stillDue = new Set<string>();
  const release = async (userId: string): Promise<void> => {
    if (await releaseUser(db, opts.replica, userId, now)) stillDue.add(userId);
  };
  // The cheap check first: an idle poll reads one index. Waiting for the projection before it would
  // only matter for an outcome whose decision the projection has not folded yet, and an outcome falls
  // due ≥ 2 h after its decision: a projection that far behind is not waited out here either, and a
  // jump of the virtual clock at most delays such an outcome by one poll.
  const any = await db.selectFrom('schedule').select('user_id').where('next_due_at', '<=', now).limit(1).executeTakeFirst();
  if (!any) return report;
  await projectionCaughtUp(deps);
  for (;;) {
    if (opts.isStopping?.()) return report;
    const leased = await lease(db, opts.replica, now, stillDue);
    for (const [i, { user_id: userId }] of leased.entries()) {
      if (opts.isStopping?.()) {
        await release(userId);
        continue;
      }
      try {
        const r = await evaluateUser(deps, userId, now);
        report.users++;
        report.outcomes += r.outcomes;
        report.trustUpdates += r.trustUpdates;
        await release(userId);
      } catch (err) {
        await release(userId);
        // NATS, Postgres or belief-graph away fails every user alike: end the pass (freeing
        // the users leased with this one), the next poll retries it.
        if (isTransientError(err)) {
          for (const rest of leased.slice(i + 1)) await release(rest.user_id).catch(() => undefined);
          throw err;
        }
        // One user's bad data must not keep the users after it from their outcomes.
        report.skipped++;
        skippedTotal.add(1);
        deps.logger?.error({ err, userId, replica: opts.replica }, 'trust outcome evaluation of a user failed; skipped in this pass, retried at the next');
      }
    }
    if (leased.length < SCHEDULER.batchSize) return report;
  }
}

/** Leases up to a batch of users with an outcome due, skipping rows another replica is leasing right now and users this pass left due. */
async function lease(db: Kysely<TrustDb>, replica: string, now: Date, stillDue: ReadonlySet<string>): Promise<{ user_id: string }[]> {
  return db
    .updateTable('schedule')
    .set({ claimed_by: replica, claimed_until: sql<Date>`now() + make_interval(secs => ${SCHEDULER.leaseSeconds})` })
    .where('user_id', 'in', (eb) =>
      eb
        .selectFrom('schedule')
        .select('user_id')
        .where('next_due_at', '<=', now)
        .where((w) => w.or([w('claimed_until', 'is', null), w('claimed_until', '<', sql<Date>`now()`)]))
        .$if(stillDue.size > 0, (q) => q.where('user_id', 'not in', [...stillDue]))
        .orderBy('next_due_at')
        .orderBy('user_id')
        .limit(SCHEDULER.batchSize)
        .forUpdate()
        .skipLocked(),
    )
    .returning('user_id')
    .execute();
}

/**
 * Frees the user and answers whether it is still due at `now`. The next due
 * time is the projection's alone (it sets it with every decision and outcome
 * it folds, in the same transaction): a second writer here could put back a
 * stale one. A lease lost to another replica counts as still due, as unknown.
 */
async function releaseUser(db: Kysely<TrustDb>, replica: string, userId: string, now: Date): Promise<boolean> {
  const row = await db
    .updateTable('schedule')
    .set({ claimed_by: null, claimed_until: null })
    .where('user_id', '=', userId)
    .where('claimed_by', '=', replica)
    .returning('next_due_at')
    .executeTakeFirst();
  return !row || (row.next_due_at !== null && row.next_due_at <= now);
}

async function projectionCaughtUp(deps: SchedulerDeps): Promise<void> {
  const target = await deps.bus.lastSeq('trust');
  const stream = deps.bus.topology.stream('trust');
  if (!(await waitForCheckpoint(deps.db, trustProjection.name, stream, target, { timeoutMs: SCHEDULER.catchUpWaitMs }))) {
    deps.logger?.warn({ target }, 'trust projection is behind its stream; evaluating on what it holds');
  }
}

/**
 * The user's due outcomes, in due order, each judged against the companion's
 * state now; a challenge's against the user's belief now and the user's
 * answers (each read only when such an outcome is due).
 */
async function evaluateUser(deps: SchedulerDeps, userId: string, now: Date): Promise<{ outcomes: number; trustUpdates: number }> {
  const { db } = deps;
  const out = { outcomes: 0, trustUpdates: 0 };
  const due = await db
    .selectFrom('outcomes')
    .select(['outcome_id', 'decision_id', 'belief_id', 'horizon', 'due_at'])
    .where('user_id', '=', userId)
    .where('evaluated_at', 'is', null)
    .where('due_at', '<=', now)
    .orderBy('due_at')
    .orderBy('outcome_id')
    .execute();
  if (due.length === 0) return out;
  // The due outcomes' decisions, read once: a decision row never changes.
  const decisionRows = await db
    .selectFrom('decisions')
    .selectAll()
    .where('decision_id', 'in', [...new Set(due.map((o) => o.decision_id))])
    .execute();
  const decisions = new Map(decisionRows.map((r) => [r.decision_id, r]));
  const challenges = due.some((o) => decisions.get(o.decision_id)?.action === 'challenge');
  const gardener = due.some((o) => decisions.get(o.decision_id)?.action !== 'challenge');
  // The user's answers come on belief-graph's stream: the projection holds the user's chain there first.
  if (challenges) await beliefGraphCaughtUp(deps, userId);
  // The companion, and the user's graph, as they stand now: one answer serves every outcome of this pass.
  const [beliefs, graph] = await Promise.all([
    gardener ? deps.beliefGraph.GetCompanionBeliefs({ userId, at: now, beliefIds: [] }).then((r) => r.beliefs.map(beliefViewOf)) : Promise.resolve([]),
    challenges ? deps.beliefGraph.GetBeliefs({ userId, holder: 'user' }) : Promise.resolve(null),
  ]);
  const coherence = coherenceOf(anchorsOf(beliefs));
  // What every outcome of the pass reads of the user, read once: the pass appends only outcomes and trust
  // steps, which change none of it. Each outcome's windows are applied by the evaluator.
  const earliest = Math.min(...due.map((o) => o.due_at.getTime())) - TRUST_CONFIG.horizons['24h'].ms;
  const [conflicts, recentDecisions, userFeedback] = await Promise.all([
    conflictHistory(db, userId, now),
    gardener
      ? db
          .selectFrom('decisions')
          .select(['belief_id', 'created_at', 'action'])
          .where('user_id', '=', userId)
          .where('action', 'in', ['promote', 'deprecate'])
          .where('created_at', '>=', new Date(now.getTime() - TRUST_CONFIG.stabilityWindowMs))
          .where('created_at', '<=', now)
          .orderBy('created_at')
          .execute()
      : Promise.resolve([]),
    gardener ? loadFeedback(db, userId, new Date(earliest - TRUST_CONFIG.implicitWindowMs), now, 'user') : Promise.resolve([]),
  ]);
  const read = { coherence, beliefs, graph, conflicts, recentDecisions, userFeedback };
  const subject = deps.bus.topology.subject('trust', userId);
  let ownSeq = 0;
  for (const o of due) {
    const horizon = o.horizon as Horizon;
    const alphaScale = TRUST_CONFIG.horizons[horizon].alphaScale;
    let steps = 0;
    const appended = await appendDecided(deps.bus, 'trust', userId, async (last) => {
      steps = 0;
      // The projection holds every earlier event of the chain, the previous outcome's trust steps too.
      await requirePosition(db, trustProjection.name, last, { timeoutMs: SERVICE.projectionWaitMs });
      const row = await db.selectFrom('outcomes').select('evaluated_at').where('outcome_id', '=', o.outcome_id).executeTakeFirst();
      if (!row || row.evaluated_at) return [];
      const decisionRow = decisions.get(o.decision_id);
      if (!decisionRow) throw new Error(`trust outcome ${o.outcome_id}: its decision ${o.decision_id} is not in the projection`);
      const decision = decisionOf(decisionRow);
      const inputs = await outcomeInputs(db, userId, decision, horizon, now, read);
      const actors = await loadActors(db, userId);
      const d = decideOutcome(inputs, actors, alphaScale);
      steps = d.steps.length;
      return outcomeDrafts(
        { userId, causationId: o.decision_id, correlationId: decisionRow.source_message_id, occurredAt: now },
        { outcomeId: o.outcome_id, decisionId: o.decision_id, beliefId: o.belief_id, horizon, dueAt: o.due_at, alphaScale },
        d.result,
        d.steps,
      );
    });
    const fresh = appended.filter((a) => !a.duplicate);
    if (fresh.some((a) => a.id === o.outcome_id)) {
      out.outcomes++;
      out.trustUpdates += steps;
      outcomesTotal.add(1, { horizon });
      if (steps > 0) updatesTotal.add(steps);
    }
    ownSeq = Math.max(ownSeq, ...appended.map((a) => a.seq));
  }
  // Let the projection hold this pass's appends, and so the user's next due time, before the release reads it.
  if (ownSeq > 0) await waitForPosition(db, trustProjection.name, subject, ownSeq, { timeoutMs: SCHEDULER.catchUpWaitMs });
  return out;
}

/** Waits (a while) for the projection to hold the user's belief-graph chain as it is now: the answers to their challenges. */
async function beliefGraphCaughtUp(deps: SchedulerDeps, userId: string): Promise<void> {
  const last = await deps.bus.lastOnSubject('belief-graph', userId);
  if (last && !(await waitForPosition(deps.db, trustProjection.name, last.subject, last.seq, { timeoutMs: SCHEDULER.catchUpWaitMs }))) {
    deps.logger?.warn({ userId, target: last.seq }, "trust projection is behind the user's belief-graph chain; judging challenges on the answers it holds");
  }
}

/** What a pass reads once for all of a user's due outcomes. */
interface PassRead {
  coherence: number;
  beliefs: readonly BeliefView[];
  graph: belief.GetBeliefsResponse | null;
  conflicts: number[];
  /** The user's promote/deprecate decisions of the stability window, oldest first. */
  recentDecisions: readonly { belief_id: string; created_at: Date; action: string }[];
  /** The user's tags from the earliest due decision's implicit window on. */
  userFeedback: FeedbackEntry[];
}

/** Everything evaluateOutcome reads about one decision, from the pass's reads of the projection and the companion (or, for a challenge, the user's graph) now. */
async function outcomeInputs(db: Kysely<TrustDb>, userId: string, decision: ReturnType<typeof decisionOf>, horizon: Horizon, now: Date, read: PassRead): Promise<OutcomeInputs> {
  if (decision.action === 'challenge') return challengeInputs(db, userId, decision, horizon, now, read);
  const { beliefs } = read;
  const belief = beliefs.find((b) => b.beliefId === decision.beliefId);
  return {
    decision,
    horizon,
    at: now,
    coherence: read.coherence,
    coherenceOwn: decisionCoherence(beliefs, decision.beliefId, { confidence: decision.confidence, level: decision.level }),
    // A belief the graph no longer returns: its conflicts are taken as unchanged.
    conflicts: belief ? belief.openConflicts : decision.conflicts,
    conflictHistory: read.conflicts,
    beliefDecisions: read.recentDecisions.filter((d) => d.belief_id === decision.beliefId).map((d) => ({ at: d.created_at, action: d.action as 'promote' | 'deprecate' })),
    userFeedback: read.userFeedback,
  };
}

/**
 * A challenge's inputs: the open conflicts on the user's belief now (taken as
 * unchanged when the graph no longer lists it), and the user's answers to the
 * belief's challenges up to now (the evaluator applies its windows; a belief is
 * challenged at most once a conversation, so they are few).
 */
async function challengeInputs(
  db: Kysely<TrustDb>,
  userId: string,
  decision: ReturnType<typeof decisionOf>,
  horizon: Horizon,
  now: Date,
  read: PassRead,
): Promise<OutcomeInputs> {
  const { coherence, graph, conflicts } = read;
  const [own, answers] = await Promise.all([
    db.selectFrom('challenges').select('challenge_id').where('decision_id', '=', decision.decisionId).executeTakeFirst(),
    db
      .selectFrom('challenges')
      .select(['challenge_id', 'answer_signal', 'answered_at'])
      .where('user_id', '=', userId)
      .where('belief_id', '=', decision.beliefId)
      .where('answered_at', 'is not', null)
      .where('answered_at', '<=', now)
      .orderBy('answered_at')
      .execute(),
  ]);
  const known = graph ? userBeliefOf(graph, decision.beliefId) : null;
  return {
    decision,
    horizon,
    at: now,
    coherence,
    coherenceOwn: 0,
    conflicts: known ? known.openConflicts : decision.conflicts,
    conflictHistory: conflicts,
    beliefDecisions: [],
    userFeedback: [],
    challenge: own
      ? { challengeId: own.challenge_id, answers: answers.map((a) => ({ challengeId: a.challenge_id, signal: a.answer_signal as AnswerSignal, at: a.answered_at! })) }
      : undefined,
  };
}

/** The open-conflict counts of the user's most recent decisions (Δconf's 95th percentile). */
async function conflictHistory(db: Kysely<TrustDb>, userId: string, now: Date): Promise<number[]> {
  const rows = await db.selectFrom('decisions').select('conflicts').where('user_id', '=', userId).where('created_at', '<=', now).orderBy('created_at', 'desc').limit(SERVICE.conflictHistoryLimit).execute();
  return rows.map((c) => c.conflicts);
}

/**
 * Runs {@link evaluateDueOutcomes} every `pollMs` until stopped: cheap when
 * nothing is due (one indexed query), and quick to notice a jump of the virtual
 * clock. Shaped as a consumer so that the host's readiness and shutdown cover it.
 */
export function startOutcomeScheduler(deps: SchedulerDeps & { pollMs: number; replica: string }): RunningConsumer {
  return startPoller({
    name: 'trust-outcome-scheduler',
    pollMs: deps.pollMs,
    pass: (isStopping) => evaluateDueOutcomes(deps, { replica: deps.replica, isStopping }),
    worthLogging: (r) => r.outcomes > 0 || r.skipped > 0,
    async lag() {
      const row = await deps.db.selectFrom('schedule').select((eb) => eb.fn.countAll<string>().as('n')).where('next_due_at', '<=', deps.clock.now()).executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    ...(deps.logger ? { logger: deps.logger } : {}),
    messages: { done: 'trust outcomes evaluated', failed: 'trust outcome evaluation failed; retrying at the next poll' },
  });
}
