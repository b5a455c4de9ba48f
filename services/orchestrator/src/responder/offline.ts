import type { StableStyle } from '../personas/assign.js';

export interface ReplyInput {
  pipeline: string;
  userText: string;
  preferredName: string;
  style: StableStyle | null;
  /** Recorded seed that picks among phrasings. */
  seed: number;
}

/** Onboarding instruction for a CREATED user (turn-pipeline §6.1, §6.1.1). */
export const FINISH_ONBOARDING_TEXT =
  "I'd love to chat! First, please complete onboarding (PUT /v1/me/onboarding) so I can get to know you.";

const OPENERS: Record<string, string[]> = {
  ONBOARDING_CHAT: ['Hi {name}, so glad you are here.', 'Hey {name}! Nice to finally meet you.', 'Hello {name}, welcome.'],
  FRIEND_CHAT: ['I hear you, {name}.', 'Got it.', 'Oh, tell me more.', 'That makes sense.'],
  EMOTIONAL_SUPPORT: ["I'm here with you, {name}.", "That sounds really hard. I'm listening."],
  INFO_QA: ['Good question.', "Here's what I know."],
};

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
