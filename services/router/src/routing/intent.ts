import { containsAny, containsPhrase, tokenize, type Preprocessed } from '@hearth/text';
import { INTENT } from '../config.js';

/** The intent flags of turn-pipeline §6.5, with the phrases that set them. */
export interface IntentFlags {
  is_question: boolean;
  has_personal_pronoun: boolean;
  has_distress: boolean;
  asks_for_comfort: boolean;
  is_pure_fact_q: boolean;
  /** The distress and comfort phrases found, for the audit trail. */
  matched: { distress: string[]; comfort: string[]; pronouns: string[] };
}

/**
 * Flags from the preprocessed text. The "?" of is_question is looked for in
 * user_text_norm, because norm_no_punct has no punctuation left to find.
 */
export function intentFlags(pre: Pick<Preprocessed, 'userTextNorm' | 'normNoPunct' | 'tokenEstimate'>): IntentFlags {
  const text = pre.normNoPunct;
  const first = tokenize(text)[0] ?? '';
  const is_question =
    pre.userTextNorm.includes('?') || INTENT.questionStarters.includes(first) || INTENT.questionPhrases.some((p) => containsPhrase(text, p));
  const pronouns = containsAny(text, INTENT.personalPronouns);
  const distress = containsAny(text, INTENT.distress);
  const comfort = containsAny(text, INTENT.comfort);
  const has_distress = distress.length > 0;
  const asks_for_comfort = comfort.length > 0;
  return {
    is_question,
    has_personal_pronoun: pronouns.length > 0,
    has_distress,
    asks_for_comfort,
    is_pure_fact_q: is_question && !has_distress && !asks_for_comfort && pre.tokenEstimate <= INTENT.pureFactMaxTokens,
    matched: { distress, comfort, pronouns },
  };
}
