// The fault suite (issue 13): users chatting as phones do (every failure retried
// with the same message_id) while (a) Hearth is SIGKILLed twice, (b) NATS is
// SIGKILLed and restarted, (c) Postgres is stopped for 10 s, (d) a poison event
// is appended. Each scenario runs on its own throwaway nats-server, postgres and
// Hearth child, then checks: 0 lost, 0 doubled, every reply equal to the
// history, one TurnReceived and one TurnCompleted per message, replay equal.
//
//   pnpm faults                                   all four, 25 users × 20 messages each
//   pnpm faults --scenario b --users 5 --messages 10
//   pnpm faults --json faults.json
//
// Exit code 1 when any invariant is broken in any scenario.
import { writeFile } from 'node:fs/promises';
import cliProgress from 'cli-progress';
import { Command, InvalidArgumentError, Option } from 'commander';
import { intArg } from '../bench/lib/cli.js';
import type { AnswerLog } from './lib/client.js';
import { formatDetails, formatTable } from './lib/report.js';
import { runScenario, SCENARIO_IDS, SCENARIO_TITLES, type ScenarioId, type ScenarioResult } from './lib/scenarios.js';

function scenarios(value: string): ScenarioId[] {
  if (value === 'all') return [...SCENARIO_IDS];
  const ids = value.split(',').map((s) => s.trim());
  for (const id of ids) {
    if (!(SCENARIO_IDS as readonly string[]).includes(id)) throw new InvalidArgumentError('expected a, b, c, d, a comma list of them, or all');
  }
  return ids as ScenarioId[];
}

const program = new Command('faults')
  .description('Chat load under faults (Hearth, NATS, Postgres killed; a poison event), then the invariants and recovery times')
  .option('-u, --users <n>', 'users chatting at once', intArg(1, 500), 25)
  .option('-m, --messages <n>', 'messages per user (history pages hold 100 turns)', intArg(1, 100), 20)
  .addOption(new Option('-s, --scenario <id>', 'a | b | c | d | a comma list | all').argParser(scenarios).default([...SCENARIO_IDS], 'all'))
  .option('--json <file>', 'also write the results as JSON')
  .parse();

const opts = program.opts<{ users: number; messages: number; scenario: ScenarioId[]; json?: string }>();
const log = (line: string): void => void process.stderr.write(`[faults] ${line}\n`);

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    // Exit handlers stop Hearth and remove the throwaway servers.
    log(`${signal}: stopping Hearth and the throwaway servers`);
    process.exit(130);
  });
}

/** A bar on a terminal; otherwise a line at each tenth of the turns. */
function progressFor(id: ScenarioId): { onTurn: (done: number, total: number, answers: AnswerLog) => void; stop: () => void } {
  const label = `${id} ${SCENARIO_TITLES[id]}`;
  let bar: cliProgress.SingleBar | undefined;
  let nextTenth = 1;
  return {
    onTurn(done, total, answers) {
      const errors = { http5xx: answers.count5xx(), noAnswer: answers.byStatus()['no answer'] ?? 0 };
      if (process.stderr.isTTY) {
        if (!bar) {
          bar = new cliProgress.SingleBar(
            { stream: process.stderr, format: `${label.padEnd(40)} {bar} {value}/{total} turns | 5xx {http5xx} | no answer {noAnswer}`, hideCursor: true },
            cliProgress.Presets.shades_classic,
          );
          bar.start(total, 0, errors);
        }
        bar.update(done, errors);
        return;
      }
      while (nextTenth <= 10 && done * 10 >= total * nextTenth) {
        log(`${label}: ${done}/${total} turns, 5xx ${errors.http5xx}, no answer ${errors.noAnswer}`);
        nextTenth++;
      }
    },
    stop: () => bar?.stop(),
  };
}

const results: ScenarioResult[] = [];
const crashed: string[] = [];
for (const id of opts.scenario) {
  const progress = progressFor(id);
  try {
    results.push(
      await runScenario(id, {
        users: opts.users,
        messagesPerUser: opts.messages,
        log: (line) => {
          // A line in the middle of a bar would tear it: the bar goes on below.
          if (process.stderr.isTTY) process.stderr.write('\n');
          log(line);
        },
        onTurn: progress.onTurn,
      }),
    );
    const r = results.at(-1)!;
    log(`${id}: ${r.problems.length === 0 ? 'PASS' : `FAIL (${r.problems.join('; ')})`}`);
  } catch (err) {
    // The suite goes on with the next scenario; this one fails without a row.
    crashed.push(`${id}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    log(`${id}: could not run: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    progress.stop();
  }
}

console.log(formatTable(results));
console.log('');
console.log(formatDetails(results));
for (const c of crashed) console.log(`could not run ${c}`);
if (opts.json) await writeFile(opts.json, JSON.stringify({ users: opts.users, messagesPerUser: opts.messages, results, crashed }, null, 2));
process.exit(crashed.length === 0 && results.every((r) => r.problems.length === 0) ? 0 : 1);
