import type { StableStyle } from '../personas/assign.js';

export interface ReplyInput {
  pipeline: string;
  userText: string;
  preferredName: string;
  style: StableStyle | null;
  /** Recorded seed that picks among phrasings. */
  seed: number;
  /** The router's safety verdict (turn-pipeline §6.2); ALLOW when absent. */
  safetyPolicy?: string;
  /** Self-harm intent: reply with the crisis-safe text. */
  crisisSafe?: boolean;
}

/** Onboarding instruction for a CREATED user (turn-pipeline §6.1, §6.1.1). */
export const FINISH_ONBOARDING_TEXT =
  "I'd love to chat! First, please complete onboarding (PUT /v1/me/onboarding) so I can get to know you.";

/**
 * §4.1.2 step 5: onboarding could not complete on this message; say what is
 * missing. The persona is the usual one: it is assigned moments after the
 * answers, so a retry shortly after succeeds.
 */
export function onboardingIncompleteText(missing: readonly string[]): string {
  const answers = missing.filter((m) => m !== 'persona');
  const parts: string[] = [];
  if (answers.length > 0) parts.push(`your onboarding answers are missing ${answers.join(', ')} (PUT /v1/me/onboarding)`);
  if (missing.includes('persona') || parts.length === 0) parts.push("I'm still getting ready to meet you; send your message again in a moment");
  return `Almost there! Before we chat, ${parts.join(', and ')}.`;
}

const OPENERS: Record<string, string[]> = {
  ONBOARDING_CHAT: ['Hi {name}, so glad you are here.', 'Hey {name}! Nice to finally meet you.', 'Hello {name}, welcome.'],
  FRIEND_CHAT: ['I hear you, {name}.', 'Got it.', 'Oh, tell me more.', 'That makes sense.'],
  EMOTIONAL_SUPPORT: ["I'm here with you, {name}.", "That sounds really hard. I'm listening."],
  INFO_QA: ['Good question.', "Here's what I know."],
};

/** A refusal that keeps the door open (§6.2); hate gets a soft decline, the rest a firm one. */
export const REFUSAL_TEXT: Readonly<Record<'HARD_REFUSE' | 'SOFT_REFUSE', string>> = {
  HARD_REFUSE: "That's not something I can talk about. I'm still here for anything else on your mind.",
  SOFT_REFUSE: "I'd rather not go there, but I'm happy to keep talking about what's going on with you.",
};

/**
 * Crisis-safe reply for self-harm intent (§6.2): take it seriously, stay
 * present, point to immediate human help; no advice on means, no judgement.
 */
export const CRISIS_SAFE_TEXT =
  "I'm really glad you told me, {name}, and I'm taking this seriously. You deserve support right now from someone who can be there in person. " +
  'If you might act on these thoughts or are in danger, please call your local emergency number now, or reach a crisis line (988 in the US, 109 in Korea). ' +
  "I'm here with you. Are you safe right now?";

const FOLLOW_UPS = [
  'What has your day been like so far?',
  'What is on your mind right now?',
  'How are you feeling about it?',
  'What would make today a bit better?',
];

const EMOJI = ['🙂', '✨', '😊'];

/**
 * The template responder used when no LLM is configured: renders a short reply
 * for the pipeline in the persona's style, varied by the recorded seed. Pure,
 * so the same inputs always give the same text.
 */
export function renderOfflineReply(input: ReplyInput): string {
  if (input.crisisSafe) return CRISIS_SAFE_TEXT.replace('{name}', input.preferredName || 'friend');
  if (input.safetyPolicy === 'HARD_REFUSE' || input.safetyPolicy === 'SOFT_REFUSE') return REFUSAL_TEXT[input.safetyPolicy];
  const openers = OPENERS[input.pipeline] ?? OPENERS.FRIEND_CHAT!;
  const name = input.preferredName || 'friend';
  let text = openers[input.seed % openers.length]!.replace('{name}', name);
  const style = input.style;
  const wantsQuestion = input.pipeline !== 'INFO_QA' && (style?.followup_question_rate === 'medium' || input.seed % 2 === 0);
  if (input.pipeline === 'ONBOARDING_CHAT') {
    text += ' Tell me a little about yourself whenever you like.';
  } else if (wantsQuestion) {
    text += ' ' + FOLLOW_UPS[(input.seed >>> 3) % FOLLOW_UPS.length]!;
  }
  if (style?.lexicon_bias === 'internet_shorthand' || style?.punctuation_quirks.includes('lowercase')) text = text.toLowerCase();
  if (style?.emoji_freq === 'light' || style?.emoji_freq === 'frequent') text += ' ' + EMOJI[(input.seed >>> 5) % EMOJI.length]!;
  return text;
}
