// The fault suite (scripts/faults, `pnpm faults`) at CI size: a few users chatting
// as phones do while Hearth is SIGKILLed twice, NATS is SIGKILLed and restarted,
// Postgres is stopped for 10 s, and a poison event is appended. Each scenario runs
// on its own throwaway nats-server, postgres and Hearth child. The invariants are
// asserted; the recovery times are only reported (`pnpm faults` prints them).
import { runScenario, SCENARIO_TITLES, type ScenarioId, type ScenarioResult } from '../scripts/faults/lib/scenarios.js';

const USERS = 3;
const MESSAGES_PER_USER = 6;
/** A Hearth restart costs up to one ack wait (30 s) before redelivery; (a) has two. */
const SCENARIO_TIMEOUT_MS = 170_000;

async function run(id: ScenarioId): Promise<ScenarioResult> {
  const lines: string[] = [];
  const result = await runScenario(id, { users: USERS, messagesPerUser: MESSAGES_PER_USER, log: (line) => lines.push(line) });
  // What happened, for a failing run's output.
  if (result.problems.length > 0) console.warn(`${id} ${SCENARIO_TITLES[id]}:\n${lines.join('\n')}\n${JSON.stringify(result, null, 2)}`);
  return result;
}

function expectInvariants(r: ScenarioResult, turns: number): void {
  expect(r.turns).toBe(turns);
  expect(r.samples).toEqual({ lost: [], doubled: [], mismatched: [], timeline: [], rejected: [] });
  expect(r.answered200).toBe(turns);
  expect(r.quiesced).toBe(true);
  expect(r.unexpectedExits).toEqual([]);
  expect(r.replay).toMatchObject({ exitCode: 0, different: [] });
  expect(r.replay.projections).toBeGreaterThan(0);
  expect(r.replay.equal).toBe(r.replay.projections);
}

describe('the fault suite (CI size: 3 users × 6 messages per scenario)', () => {
  it(
    '(a) Hearth SIGKILLed twice mid-load: nothing lost or doubled, replies equal the history, replay equal',
    async () => {
      const r = await run('a');
      expect(r.faults.map((f) => f.label)).toEqual(['SIGKILL Hearth #1', 'SIGKILL Hearth #2']);
      expectInvariants(r, USERS * MESSAGES_PER_USER);
      expect(r.problems).toEqual([]);
    },
    SCENARIO_TIMEOUT_MS,
  );

  it(
    '(b) NATS SIGKILLed and restarted mid-load: nothing lost or doubled, Hearth stays up, replay equal',
    async () => {
      const r = await run('b');
      expect(r.faults.map((f) => f.label)).toEqual(['SIGKILL NATS']);
      expectInvariants(r, USERS * MESSAGES_PER_USER);
      expect(r.problems).toEqual([]);
    },
    SCENARIO_TIMEOUT_MS,
  );

  it(
    '(c) Postgres stopped for 10 s mid-load: Hearth does not exit, nothing lost or doubled, replay equal',
    async () => {
      const r = await run('c');
      expect(r.faults.map((f) => f.label)).toEqual(['Postgres stopped 10 s']);
      expectInvariants(r, USERS * MESSAGES_PER_USER);
      expect(r.problems).toEqual([]);
    },
    SCENARIO_TIMEOUT_MS,
  );

  it(
    '(d) a poison TurnReceived: that message_id answers 422 TURN_FAILED, the next message 200, it is a dead letter, other users unaffected',
    async () => {
      const r = await run('d');
      // The load's turns plus the victim's first and next messages.
      expectInvariants(r, USERS * MESSAGES_PER_USER + 2);
      expect(r.poison).toMatchObject({ status: 422, code: 'TURN_FAILED', nextStatus: 200, deadLettersStatus: 200, listed: true });
      expect(r.poison?.details).toMatchObject({ event_id: r.poison?.messageId, service: expect.any(String) });
      expect(r.problems).toEqual([]);
    },
    SCENARIO_TIMEOUT_MS,
  );
});
