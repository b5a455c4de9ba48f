import { isRetryable, retryAfterMs, type Seen } from './client.js';
import { LoadProgress } from './load.js';
import { formatTable } from './report.js';
import { judge, recovery, type InjectedFault, type ScenarioResult } from './scenarios.js';

describe('the retrying client', () => {
  it('retries no answer, 429 and every 5xx; takes any other status as definite', () => {
    expect([0, 429, 500, 503, 504].every(isRetryable)).toBe(true);
    expect([200, 400, 401, 404, 409, 422].some(isRetryable)).toBe(false);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterMs('2')).toBe(2_000);
    expect(retryAfterMs('0.5')).toBe(500);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 7_000)).toBe(3_000);
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryAfterMs('soon')).toBeUndefined();
  });
});

describe('LoadProgress', () => {
  it('resolves a wait once the turns are answered, and false when the load ends first', async () => {
    const p = new LoadProgress(3);
    const two = p.reached(2);
    const five = p.reached(5);
    p.tick();
    p.tick();
    await expect(two).resolves.toBe(true);
    p.finish();
    await expect(five).resolves.toBe(false);
    await expect(p.reached(1)).resolves.toBe(true);
  });
});

describe('recovery', () => {
  const seen = (userId: string, sentAt: number, at: number, status: number): Seen => ({ userId, sentAt, at, status, route: 'POST /v1/conversations/{id}/messages' });

  it('counts from the fault to the first 200 of a request sent after it, and until every active user had one', () => {
    const fault: InjectedFault = { label: 'kill', atTurn: 5, at: 1_000, restoredAt: 3_000, active: new Set(['u1', 'u2']) };
    const log = [
      seen('u1', 900, 1_100, 200), // sent before the fault: does not count
      seen('u1', 1_050, 1_060, 0),
      seen('u1', 3_100, 4_000, 200),
      seen('u2', 3_200, 6_500, 200),
      seen('u3', 3_300, 3_500, 200), // not active at the fault, still a first 200
    ];
    expect(recovery(fault, log)).toEqual({ label: 'kill', atTurn: 5, restoreMs: 2_000, firstOkMs: 2_500, allServedMs: 5_500 });
  });

  it('leaves "all served" out while an active user never got a 200', () => {
    const fault: InjectedFault = { label: 'kill', atTurn: 5, at: 0, active: new Set(['u1', 'u2']) };
    expect(recovery(fault, [seen('u1', 10, 20, 200)])).toEqual({ label: 'kill', atTurn: 5, firstOkMs: 20 });
  });
});

describe('judge and the table', () => {
  const passing: ScenarioResult = {
    id: 'b',
    title: 'NATS SIGKILLed and restarted',
    users: 2,
    turns: 10,
    answered200: 10,
    lost: 0,
    doubled: 0,
    mismatched: 0,
    timelineViolations: 0,
    rejected: 0,
    http5xx: 1,
    statuses: { '200': 10, '503': 1 },
    retriedMessages: 1,
    faults: [{ label: 'SIGKILL NATS', atTurn: 4, restoreMs: 40, firstOkMs: 1_600, allServedMs: 7_100 }],
    unexpectedExits: [],
    replay: { projections: 8, equal: 8, different: [], exitCode: 0 },
    quiesced: true,
    problems: [],
    durationMs: 30_000,
    samples: { lost: [], doubled: [], mismatched: [], timeline: [], rejected: [] },
  };

  it('passes a scenario whose invariants hold, whatever its 5xx count', () => {
    expect(judge(passing)).toEqual([]);
  });

  it('names each broken invariant', () => {
    const failing = { ...passing, lost: 1, doubled: 2, replay: { projections: 8, equal: 7, different: ['x/turns'], exitCode: 1 }, unexpectedExits: [{ atMs: 1, output: '' }] };
    expect(judge(failing)).toEqual([
      '1 message(s) lost',
      '2 message id(s) doubled in a history',
      'Hearth exited on its own 1 time(s)',
      'replay: 7/8 equal (different: x/turns), exit 1',
    ]);
  });

  it('expects the poisoned turn to answer 422 TURN_FAILED naming the event and the service', () => {
    const poisoned = { ...passing, poison: { messageId: 'm', status: 422, code: 'TURN_FAILED', details: { event_id: 'm', service: 'ingress' }, nextStatus: 200, deadLettersStatus: 200, listed: true } };
    expect(judge(poisoned)).toEqual([]);
    expect(judge({ ...poisoned, poison: { ...poisoned.poison, status: undefined, code: 'no definite answer in 60 s', listed: false } })).toEqual([
      'poisoned turn: no definite answer in 60 s (422 TURN_FAILED expected)',
      'GET /v1/admin/dead-letters answered 200 without the poisoned event',
    ]);
  });

  it('prints one row per scenario with the recovery times', () => {
    const table = formatTable([passing]).split('\n');
    expect(table).toHaveLength(3);
    expect(table[2]).toMatch(/^\| b NATS SIGKILLed and restarted \| 10 +\| 0 +\| 0 .*\| 1\.6 s \/ 7\.1 s +\| 8\/8 equal \| PASS +\|$/);
  });
});
