import type { PlannedMemory, ResponsePlan } from './plan.js';

export interface PromptMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface PromptInput {
  plan: ResponsePlan;
  persona: { coreArchetype: string; humorMode: string; directness: string; hintTokens: readonly string[]; emotionalExpression: string };
  preferredName: string;
  pipeline: string;
  /** The memories the plan chose; nothing else reaches the prompt (§9 "limited; never dump many"). */
  memories: readonly PlannedMemory[];
  /** Earlier turns of the conversation, oldest first. */
  recent: readonly { user: string; assistant: string }[];
  userText: string;
  /**
   * The companion's core beliefs (issue 16), as the belief graph holds them
   * (canonical text, affirmative form, and polarity): constraints on the reply.
   * @default []
   */
  coreBeliefs?: readonly { text: string; polarity: string }[];
  /**
   * A belief challenge's prompt the reply may take up as optional exploration
   * (belief-challenge.md Integration step 4), or '' for none. @default ''
   */
  challenge?: string;
  /**
   * An uncertainty to ask about (issue 17; uncertainty-engine.md "Weave, don't
   * interrupt"), or undefined: what the friend remembered and what the user
   * says now (or, for an older one, the two notes that disagree), and a
   * question in the friend's voice as an example. @default undefined
   */
  uncertainty?: UncertaintyPrompt;
}

export interface UncertaintyPrompt {
  /** contradiction: this message contradicts a memory; surfacing: an older open one the conversation touches. */
  reason: string;
  /** What the friend held ("you loved sushi"), and the other side as said ("you're not into sushi"). */
  held: string;
  stated: string;
  /** A gentle question (libs/uncertainty questionFor), one way to ask it. */
  question: string;
}

/** The JSON the model must answer with. */
export const REPLY_FORMAT = '{"text": string, "surfaced_memory_ids": string[]}';

const RULES = [
  'You are a companion in a friendship app, not a romantic or erotic partner. Never write sexual or explicit content, never roleplay sexually.',
  'Never encourage self-harm; if the user may be at risk, point gently to immediate human help.',
  'No hate, slurs or harassment.',
  'Do not dump personal facts: mention only the memories listed below, and only when they fit.',
  'Never foster dependency or exclusivity (no "you only need me").',
  'Never mention the avoided topics unless the user raised them in this message.',
];

function bandText(plan: ResponsePlan): string {
  const c = plan.constraints;
  const avg = c.avgWordsMax ? `${c.avgWordsMin || 1}–${c.avgWordsMax}` : `at least ${c.avgWordsMin}`;
  return `${c.sentencesMin}–${c.sentencesMax} sentences, ${avg} words per sentence on average`;
}

/** The core companion beliefs as constraints (issue 16); the self_consistency gate enforces them. */
function selfText(core: readonly { text: string; polarity: string }[]): string {
  if (core.length === 0) return '';
  const held = core.map((b) => `- ${b.polarity === 'deny' ? 'not ' : ''}"${b.text}"`).join('\n');
  return `Stay consistent with what you have said about yourself:\n${held}\nNever say the opposite of one of these; you need not mention them.`;
}

/**
 * A challenge as belief-challenge.md injects it: optional, only where the
 * conversation goes there of itself, a question and never a correction.
 */
function challengeText(prompt: string, plan: ResponsePlan): string {
  if (!prompt) return '';
  return [
    `**OPTIONAL BELIEF EXPLORATION**: ${prompt}`,
    'Use it only if the conversation naturally allows it: gently, as a question, in your own words, never as a correction, never insisting.',
    plan.followupQuestion ? 'If you use it, it is your one question, instead of the one above.' : '',
  ]
    .filter(Boolean)
    .join('\n');
}

/**
 * An uncertainty as the response pipeline weaves it (uncertainty-engine.md
 * FrontalCortexService): both sides, never either asserted, a question in the
 * model's own words, the reply's only question.
 */
function uncertaintyText(u: UncertaintyPrompt | undefined, plan: ResponsePlan): string {
  if (!u) return '';
  const what =
    u.reason === 'contradiction'
      ? `The user's message contradicts what you remembered: ${u.held}. Now it sounds like ${u.stated}.`
      : `Two things you remember about the user do not agree: ${u.held}, and ${u.stated}.`;
  return [
    `**UNCERTAIN MEMORY**: ${what}`,
    `Do not assert either version as a fact. Ask about it gently, once, in your own words, woven into your reply, for example: "${u.question}"`,
    plan.followupQuestion ? 'It is your one question, instead of the one above.' : 'It is the only question in your reply.',
  ].join('\n');
}

/**
 * Stage E (turn-pipeline §9): system rules, persona constraints as explicit
 * targets, the stage's intimacy cap, the companion's core beliefs (issue 16),
 * the chosen memory snippets, the recent turns, and the plan, with a belief
 * challenge as optional exploration when one is offered, or an uncertain
 * memory to ask about (issue 17). Scaffolding only:
 * the §10 gates still enforce all of it.
 */
export function buildPrompt(input: PromptInput): PromptMessage[] {
  const { plan } = input;
  const c = plan.constraints;
  const persona = [
    `Persona: ${input.persona.coreArchetype}; humor ${input.persona.humorMode}; directness ${input.persona.directness}; emotional expression ${input.persona.emotionalExpression}.`,
    `Length: ${bandText(plan)}.`,
    `Emoji: between ${c.emojiMin} and ${c.emojiMax}.`,
    `Vocabulary: ${c.lexiconBias}${c.lexiconBias === 'clean' ? ' (no slang, no internet shorthand)' : c.lexiconBias === 'slang' ? ' (casual slang is fine, no internet shorthand like lol/tbh)' : ' (internet shorthand is fine)'}.`,
    `Punctuation quirks you may use: ${c.allowedQuirks.length ? c.allowedQuirks.join(' ') : 'none'}; use no other quirks (no ~, no ..., no !!, no (asides), not all-lowercase) unless listed.`,
    input.persona.hintTokens.length ? `Words that sound like you (hints only): ${input.persona.hintTokens.join(', ')}.` : '',
  ].filter(Boolean);
  const stage = `Relationship stage: ${c.intimacyStage}. ${c.intimateAllowed ? 'Warm, affectionate friendship language is fine.' : c.warmAllowed ? 'Friendly warmth is fine; no intimate terms (love you, babe, sweetheart).' : 'Keep it friendly but not intimate: no terms of endearment, no "miss you" or hugs.'}`;
  const memories = input.memories.length
    ? `Memories you may use (cite each one you use by its id in surfaced_memory_ids):\n${input.memories.map((m) => `- ${m.memoryId}: ${m.key} = ${m.value}`).join('\n')}`
    : 'Memories you may use: none. surfaced_memory_ids must be [].';
  const planText = [
    `Pipeline: ${input.pipeline}. Tone: ${plan.emotionalTone}. Acknowledgement: ${plan.ackStyle}.`,
    `Outline:\n${plan.outline.map((o) => `- ${o.kind}: ${o.detail}`).join('\n')}`,
    plan.followupQuestion ? `End with exactly one question: ${plan.followupQuestion}.` : 'Ask no question.',
    plan.tabooGuard.length ? `Avoid these topics: ${plan.tabooGuard.join(', ')}.` : '',
    plan.respondOnlyTopics.length ? `The user raised ${plan.respondOnlyTopics.join(', ')}: answer only what they asked, no follow-up on it.` : '',
  ].filter(Boolean);
  const self = selfText(input.coreBeliefs ?? []);
  const challenge = challengeText(input.challenge ?? '', plan);
  const uncertain = uncertaintyText(input.uncertainty, plan);
  const system = [
    ...RULES,
    '',
    ...persona,
    stage,
    ...(self ? ['', self] : []),
    '',
    memories,
    '',
    ...planText,
    ...(challenge ? ['', challenge] : []),
    ...(uncertain ? ['', uncertain] : []),
    '',
    `The user's name is ${input.preferredName || 'not known'}.`,
    `Answer with only this JSON object: ${REPLY_FORMAT}.`,
  ].join('\n');
  const messages: PromptMessage[] = [{ role: 'system', content: system }];
  for (const t of input.recent) {
    if (t.user) messages.push({ role: 'user', content: t.user });
    messages.push({ role: 'assistant', content: t.assistant });
  }
  messages.push({ role: 'user', content: input.userText });
  return messages;
}

/** The constrained rewrite request of §10: the failed gates, and what to change. */
export function rewriteInstruction(failures: readonly { gate: string; detail: string }[]): string {
  return [
    'Rewrite your reply so that it passes these checks, keeping its meaning:',
    ...failures.map((f) => `- ${f.gate}: ${f.detail}`),
    'If it repeated an earlier reply, make it shorter and open differently.',
    `Answer with only this JSON object: ${REPLY_FORMAT}.`,
  ].join('\n');
}
