// The CPU cost of the orchestrator's pure stages for one turn (turn-pipeline §8–§11):
// constraints + plan, the offline render, the eleven §10 gates against the last 20
// replies, and the §11 relationship update. No I/O: what these add to a turn on top
// of the JetStream and Postgres hops that `scripts/bench/turn` measures.
//
//   pnpm bench:recipe [--turns 5000] [--json FILE]
import { writeFile } from 'node:fs/promises';
import { Command } from 'commander';
import { normalizeUserText, preprocess } from '@hearth/text';
import { STAGES } from '../../services/orchestrator/src/config.js';
import { evaluateReply } from '../../services/orchestrator/src/gates/index.js';
import { styleOf } from '../../services/orchestrator/src/personas/assign.js';
import { PERSONA_LIBRARY } from '../../services/orchestrator/src/personas/library.js';
import { analyzeEmotion, detectEvidence, initialRelationship, updateRelationship } from '../../services/orchestrator/src/relationship/index.js';
import { renderPlan } from '../../services/orchestrator/src/responder/offline.js';
import { personaConstraints } from '../../services/orchestrator/src/turn/constraints.js';
import { planResponse } from '../../services/orchestrator/src/turn/plan.js';
import { intArg, log } from './lib/cli.js';
import { createProgress } from './lib/progress.js';
import { fmt, table } from './lib/report.js';
import { perSecond, summarize, type Summary } from './lib/stats.js';

const MESSAGES = [
  'hi! how is your day going?',
  'I just got back from a long walk by the river and my legs are tired',
  'honestly I am a bit heartbroken today, my best friend moved away',
  'I love sushi and I hate the rain',
  'do you remember what I told you about my exam last time?',
  'my boss at my new job wants me to redo the interview next week',
  'ok',
  '오늘 너무 힘들었어. 회사에서 일이 많았어.',
];

interface Stage {
  name: string;
  samples: number[];
}

async function main(): Promise<void> {
  const opts = new Command()
    .name('bench:recipe')
    .option('--turns <n>', 'turns to time', intArg(100, 1_000_000), 5_000)
    .option('--json <file>', 'write the figures as JSON')
    .parse()
    .opts<{ turns: number; json?: string }>();
  const stages: Stage[] = ['plan', 'render', 'gates', 'relationship', 'total'].map((name) => ({ name, samples: [] }));
  const [plan, render, gates, relationship, total] = stages as [Stage, Stage, Stage, Stage, Stage];
  const recent: string[] = [];
  let state = initialRelationship();
  const progress = createProgress(opts.turns, 'turns');
  const started = performance.now();
  for (let i = 0; i < opts.turns; i++) {
    const t = PERSONA_LIBRARY[i % PERSONA_LIBRARY.length]!;
    const stage = STAGES[i % STAGES.length]!;
    const text = MESSAGES[i % MESSAGES.length]!;
    const style = styleOf(t);
    const pre = preprocess(text);
    const initiated = pre.topicMatches.filter((m) => m.confidence >= 0.7).map((m) => m.topicId);
    const t0 = performance.now();
    const emotion = analyzeEmotion(pre.normNoPunct);
    const constraints = personaConstraints({ style, template: t, stage, suppressedTopics: ['POLITICS'], initiatedNow: initiated, initiatedRecent: initiated, previousAskedQuestion: i % 2 === 0 });
    const p = planResponse({
      pipeline: i % 3 === 0 ? 'EMOTIONAL_SUPPORT' : 'FRIEND_CHAT',
      source: 'chat',
      isQuestion: text.includes('?'),
      emotion,
      constraints,
      initiatedNow: initiated,
      initiatedRecent: initiated,
      suppressedTopics: ['POLITICS'],
      userTokens: pre.normNoPunct.split(' '),
      memories: [],
      recallAsked: false,
      directness: style.directness_level,
    });
    const t1 = performance.now();
    const r = renderPlan({ plan: p, preferredName: 'Mina', memories: [], hintTokens: t.lexicon_bias.hint_tokens, seed: i * 2654435761 });
    const t2 = performance.now();
    evaluateReply({
      text: r.text,
      style,
      stage,
      source: 'chat',
      surfaced: [],
      recallAsked: false,
      userInitiated: initiated,
      initiatedRecent: initiated,
      suppressedTopics: ['POLITICS'],
      tabooSoftBounds: t.taboo_soft_bounds,
      recentAssistant: recent,
    });
    const t3 = performance.now();
    state = updateRelationship(state, {
      now: new Date(Date.UTC(2026, 0, 1) + i * 60_000),
      evidence: detectEvidence({ normNoPunct: normalizeUserText(text).normNoPunct, previousAssistantAskedQuestion: true, emotion }),
    }).next;
    const t4 = performance.now();
    plan.samples.push(t1 - t0);
    render.samples.push(t2 - t1);
    gates.samples.push(t3 - t2);
    relationship.samples.push(t4 - t3);
    total.samples.push(t4 - t0);
    recent.unshift(r.text);
    if (recent.length > 20) recent.pop();
    progress.tick(0);
  }
  progress.stop();
  const wallMs = performance.now() - started;
  const summaries: Record<string, Summary> = Object.fromEntries(stages.map((s) => [s.name, summarize(s.samples)]));
  const us = (ms: number) => fmt(ms * 1000, 0);
  const rows = [['stage', 'p50 µs', 'p90 µs', 'p99 µs', 'max µs'], ...stages.map((s) => [s.name, us(summaries[s.name]!.p50), us(summaries[s.name]!.p90), us(summaries[s.name]!.p99), us(summaries[s.name]!.max)])];
  console.log(`\nbench:recipe — ${opts.turns} turns, 24 templates × 4 stages, gates against the last 20 replies, one core\n`);
  for (const line of table(rows)) console.log(line);
  console.log(`\nthroughput: ${fmt(perSecond(opts.turns, wallMs), 0)} turns/s of pure recipe work (wall ${fmt(wallMs, 0)} ms)`);
  if (opts.json) await writeFile(opts.json, JSON.stringify({ turns: opts.turns, wallMs, stages: summaries }, null, 2));
}

main().catch((err: unknown) => {
  log(`bench:recipe failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exitCode = 1;
});
