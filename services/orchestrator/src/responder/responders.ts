import type { ChatClient, LlmExchange } from '@hearth/llm';
import { z } from 'zod';
import { OFFLINE_PROVIDER } from '../config.js';
import type { GateVerdict } from '../gates/index.js';
import type { Candidate, Responder } from '../turn/compose.js';
import type { PlannedMemory, ResponsePlan } from '../turn/plan.js';
import { buildPrompt, rewriteInstruction, type PromptInput } from '../turn/prompt.js';
import { fallbackReply, renderPlan } from './offline.js';

/** What both responders know of the turn besides the plan. */
export interface TurnContext {
  preferredName: string;
  memories: readonly PlannedMemory[];
  hintTokens: readonly string[];
  /** The prompt's input; its `challenge` and `coreBeliefs` (issue 16) and `uncertainty` (issue 17) reach the LLM as PromptInput says. */
  prompt: Omit<PromptInput, 'plan' | 'memories' | 'preferredName'>;
  /** A self-statement the offline reply says (issue 16; self-talk.ts), or ''. @default '' */
  selfStatement?: string;
  /** The user asked about the friend itself (self-talk.ts `asksAboutFriend`). @default false */
  aboutFriend?: boolean;
  /**
   * An uncertainty's question in the phrasings the offline reply may close
   * with, preferred first (issue 17; offline.ts `uncertainty`). @default []
   */
  uncertaintyQuestions?: readonly string[];
}

/** How many seeds the offline rewrite tries before handing over to the fallback. */
const OFFLINE_REWRITE_TRIES = 24;

/**
 * The offline provider: renders the plan from templates. Its rewrite is a
 * constrained re-render (shorter, another structure, other phrasings) that
 * checks its own candidates against the gates, as a rewrite prompt would ask.
 */
export function offlineResponder(ctx: TurnContext, check: (c: Pick<Candidate, 'text' | 'surfacedMemoryIds'>) => GateVerdict[]): Responder {
  const exchange = (purpose: string, plan: ResponsePlan, seed: number, output: string): LlmExchange => ({
    ...OFFLINE_PROVIDER,
    purpose,
    attempt: 1,
    // What the render was given besides the plan, so the record says why it reads as it does.
    messages: [
      {
        role: 'system',
        content: [
          ...plan.outline.map((o) => `${o.kind}: ${o.detail}`),
          ...(ctx.prompt.challenge ? [`challenge: ${ctx.prompt.challenge}`] : []),
          ...(ctx.uncertaintyQuestions?.length ? [`uncertainty: ${ctx.uncertaintyQuestions.join(' | ')}`] : []),
          ...(ctx.selfStatement ? [`self: ${ctx.selfStatement}`] : []),
        ].join('\n'),
      },
    ],
    output,
    error: '',
    latencyMs: 0,
    seed,
  });
  const render = (plan: ResponsePlan, seed: number, rewrite: boolean) =>
    renderPlan({
      plan,
      seed,
      rewrite,
      preferredName: ctx.preferredName,
      memories: ctx.memories,
      hintTokens: ctx.hintTokens,
      challenge: ctx.prompt.challenge ?? '',
      selfStatement: ctx.selfStatement ?? '',
      aboutFriend: ctx.aboutFriend ?? false,
      uncertainty: ctx.uncertaintyQuestions ?? [],
    });
  return {
    ...OFFLINE_PROVIDER,
    draft(plan, seed) {
      const r = render(plan, seed, false);
      return Promise.resolve({ ...r, exchanges: [exchange('reply', plan, seed, r.text)] });
    },
    rewrite(plan, seed) {
      let chosen = render(plan, (seed + 1) >>> 0, true);
      let used = (seed + 1) >>> 0;
      for (let i = 1; i <= OFFLINE_REWRITE_TRIES; i++) {
        const s = (seed + i) >>> 0;
        const r = render(plan, s, true);
        if (check(r).every((v) => v.pass)) {
          chosen = r;
          used = s;
          break;
        }
      }
      return Promise.resolve({ ...chosen, exchanges: [exchange('rewrite', plan, used, chosen.text)] });
    },
    fallback: (plan) => ({ ...fallbackReply(plan), exchanges: [] }),
  };
}

export const replySchema = z.object({ text: z.string().min(1), surfaced_memory_ids: z.array(z.string()).default([]) });

/**
 * The LLM provider: the §9 prompt, structured output with one JSON repair, and
 * a rewrite that sends the failed gates back. Surfaced ids the model invents
 * (not among the planned memories) are dropped.
 */
export function llmResponder(chat: ChatClient, ctx: TurnContext): Responder {
  const allowed = new Set(ctx.memories.map((m) => m.memoryId));
  const toCandidate = (value: z.infer<typeof replySchema>, exchanges: LlmExchange[]): Candidate => ({
    text: value.text.trim(),
    surfacedMemoryIds: [...new Set(value.surfaced_memory_ids)].filter((id) => allowed.has(id)),
    exchanges,
  });
  const messages = (plan: ResponsePlan) => buildPrompt({ ...ctx.prompt, plan, memories: ctx.memories, preferredName: ctx.preferredName });
  return {
    provider: chat.provider,
    model: chat.model,
    async draft(plan, seed) {
      const r = await chat.completeJson({ purpose: 'reply', messages: messages(plan), seed, schema: replySchema });
      return toCandidate(r.value, r.exchanges);
    },
    async rewrite(plan, seed, previous, failures) {
      const r = await chat.completeJson({
        purpose: 'rewrite',
        seed,
        schema: replySchema,
        messages: [
          ...messages(plan),
          { role: 'assistant', content: JSON.stringify({ text: previous.text, surfaced_memory_ids: previous.surfacedMemoryIds }) },
          { role: 'user', content: rewriteInstruction(failures) },
        ],
      });
      return toCandidate(r.value, r.exchanges);
    },
    fallback: (plan) => ({ ...fallbackReply(plan), exchanges: [] }),
  };
}
