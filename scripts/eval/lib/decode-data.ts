// Reading DECODE (Nie et al., ACL 2021) where it lies, ../shared/data/decode:
// human-bot.jsonl (the bot's last turn labelled contradictory or not) and
// rct.jsonl (hard negatives with persona lines). Every record becomes a plan of
// the statements one speaker — "the companion" — said, in order; the text itself
// is never copied anywhere but into memory.
import { z } from 'zod';

export const HUMAN_BOT_FILE = 'human-bot.jsonl';
export const RCT_FILE = 'rct.jsonl';

const turnSchema = z.looseObject({
  text: z.string(),
  turn_id: z.number().int().optional(),
  agent_id: z.union([z.number().int(), z.string()]),
});

const agentSchema = z.looseObject({
  is_human: z.boolean(),
  // Some rct agents carry "" instead of a list: no persona lines.
  persona_lines: z.union([z.array(z.string()), z.literal('').transform((): string[] => [])]).optional(),
});

export const recordSchema = z.looseObject({
  conversation_id: z.string(),
  record_id: z.string().optional(),
  agents: z.record(z.string(), agentSchema),
  turns: z.array(turnSchema).min(1),
  is_contradiction: z.boolean(),
});
export type DecodeRecord = z.infer<typeof recordSchema>;

export type DecodeSet = 'human-bot' | 'rct';

/** One dialogue as the evaluation feeds it: the companion's statements in order, the last one judged. */
export interface DialoguePlan {
  set: DecodeSet;
  /** conversation_id, with record_id when the set reuses conversation ids (rct's "#truncated#n"). */
  id: string;
  /** Which agent is the companion ("1"). */
  companionAgent: string;
  /** Persona seed statements, fed first (rct only; human-bot bots have none). */
  persona: string[];
  /** The companion's turns, in order; the last one is the turn under test. */
  turns: string[];
  label: boolean;
}

export class DecodeFormatError extends Error {}

/** Parses a JSONL file's text: one record a line, blank lines skipped. Throws DecodeFormatError naming the line. */
export function parseJsonl(text: string, file: string): DecodeRecord[] {
  const out: DecodeRecord[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '') continue;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (err) {
      throw new DecodeFormatError(`${file}:${i + 1}: not JSON (${(err as Error).message})`);
    }
    const parsed = recordSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new DecodeFormatError(`${file}:${i + 1}: not a DECODE record (${issue ? `${issue.path.join('.') || 'record'}: ${issue.message}` : 'invalid'})`);
    }
    out.push(parsed.data);
  }
  return out;
}

/**
 * human-bot: the bot is the one agent with is_human false; its turns are the
 * companion's statements and the label is on its last turn. A record whose last
 * turn is not the bot's, or with no single bot, is skipped with a reason.
 */
export function planHumanBot(r: DecodeRecord): DialoguePlan | { skip: string } {
  const bots = Object.entries(r.agents).filter(([, a]) => !a.is_human);
  if (bots.length !== 1) return { skip: `${bots.length} bot agents` };
  const [agent, bot] = bots[0]!;
  const last = r.turns[r.turns.length - 1]!;
  if (String(last.agent_id) !== agent) return { skip: 'last turn is not the bot' };
  return {
    set: 'human-bot',
    id: r.conversation_id,
    companionAgent: agent,
    persona: bot.persona_lines ?? [],
    turns: r.turns.filter((t) => String(t.agent_id) === agent).map((t) => t.text),
    label: r.is_contradiction,
  };
}

/**
 * rct: both agents are human writers; the speaker of the last turn plays the
 * companion, its persona lines seed the graph, then its turns in order.
 */
export function planRct(r: DecodeRecord): DialoguePlan | { skip: string } {
  const last = r.turns[r.turns.length - 1]!;
  const agent = String(last.agent_id);
  const speaker = r.agents[agent];
  if (!speaker) return { skip: `last turn's agent ${agent} is not in agents` };
  return {
    set: 'rct',
    id: r.record_id ? `${r.conversation_id}/${r.record_id}` : r.conversation_id,
    companionAgent: agent,
    persona: speaker.persona_lines ?? [],
    turns: r.turns.filter((t) => String(t.agent_id) === agent).map((t) => t.text),
    label: r.is_contradiction,
  };
}

/** Plans of one set, with the count of skipped records and why. */
export function planAll(records: readonly DecodeRecord[], set: DecodeSet): { plans: DialoguePlan[]; skipped: Record<string, number> } {
  const plans: DialoguePlan[] = [];
  const skipped: Record<string, number> = {};
  for (const r of records) {
    const p = set === 'human-bot' ? planHumanBot(r) : planRct(r);
    if ('skip' in p) skipped[p.skip] = (skipped[p.skip] ?? 0) + 1;
    else plans.push(p);
  }
  return { plans, skipped };
}
