import { GATES, type Stage } from '../config.js';
import { INTIMACY_CAP } from '../gates/index.js';
import type { StableStyle } from '../personas/assign.js';
import type { PersonaTemplate } from '../personas/library.js';

export type Tone = 'supportive' | 'playful' | 'calm' | 'blunt';

/** The PersonaConstraintEngine's hard limits for one turn (turn-pipeline §8.2). */
export interface PersonaConstraints {
  emojiFreq: string;
  emojiMin: number;
  emojiMax: number;
  msgLengthPref: string;
  sentencesMin: number;
  sentencesMax: number;
  /** 0 = open bound. */
  avgWordsMin: number;
  avgWordsMax: number;
  lexiconBias: string;
  allowedQuirks: string[];
  /** 0 or 1: the follow-up question rate cap for this turn. */
  maxFollowupQuestions: number;
  intimacyStage: Stage;
  warmAllowed: boolean;
  intimateAllowed: boolean;
  /** TopicIDs not to mention unsolicited this turn. */
  tabooTopics: string[];
  allowedTones: Tone[];
}

export interface ConstraintInput {
  style: StableStyle;
  template: Pick<PersonaTemplate, 'taboo_soft_bounds' | 'emotional_expression_level'>;
  stage: Stage;
  suppressedTopics: readonly string[];
  /** TopicIDs the user initiated in this message (§2.8, confidence ≥ 0.70). */
  initiatedNow: readonly string[];
  /** … in this or the previous 2 user messages. */
  initiatedRecent: readonly string[];
  /** Whether the previous reply in the conversation asked a question. */
  previousAskedQuestion: boolean;
}

/**
 * §8.2: the persona, stage and user controls become hard limits. A suppressed
 * topic is taboo unless the user raised it in this very message; a template's
 * taboo_soft_bounds unless raised in this or the previous 2 messages (§2.8).
 * followup_question_rate `low` caps questions at every other reply.
 */
export function personaConstraints(input: ConstraintInput): PersonaConstraints {
  const { style, stage } = input;
  const emoji = GATES.emojiBand[style.emoji_freq] ?? GATES.emojiBand.none!;
  const band = GATES.sentenceBand[style.msg_length_pref] ?? GATES.sentenceBand.medium!;
  const cap = INTIMACY_CAP[stage];
  const taboo = new Set<string>();
  for (const t of input.suppressedTopics) if (!input.initiatedNow.includes(t)) taboo.add(t);
  for (const t of input.template.taboo_soft_bounds) if (!input.initiatedRecent.includes(t)) taboo.add(t);
  const tones: Tone[] = ['supportive', 'calm'];
  if (style.humor_mode !== 'none') tones.push('playful');
  if (style.directness_level === 'blunt') tones.push('blunt');
  return {
    emojiFreq: style.emoji_freq,
    emojiMin: emoji[0],
    emojiMax: emoji[1],
    msgLengthPref: style.msg_length_pref,
    sentencesMin: band.sentences[0],
    sentencesMax: band.sentences[1],
    avgWordsMin: band.avgWords[0] ?? 0,
    avgWordsMax: band.avgWords[1] ?? 0,
    lexiconBias: style.lexicon_bias,
    allowedQuirks: [...style.punctuation_quirks],
    maxFollowupQuestions: style.followup_question_rate === 'low' && input.previousAskedQuestion ? 0 : 1,
    intimacyStage: stage,
    warmAllowed: cap.warm,
    intimateAllowed: cap.intimate,
    tabooTopics: [...taboo].sort(),
    allowedTones: tones,
  };
}
