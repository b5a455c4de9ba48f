import { defaultValues, type PersonaTemplate, type PersonaValues } from './library.js';

export interface StableStyle {
  msg_length_pref: string;
  emoji_freq: string;
  humor_mode: string;
  directness_level: 'soft' | 'balanced' | 'blunt';
  followup_question_rate: 'low' | 'medium';
  lexicon_bias: string;
  punctuation_quirks: string[];
}

/** The style of a user whose persona is not assigned (yet): plain, and no quirks. */
export const NEUTRAL_STYLE: Readonly<StableStyle> = Object.freeze({
  msg_length_pref: 'medium',
  emoji_freq: 'none',
  humor_mode: 'none',
  directness_level: 'balanced',
  followup_question_rate: 'low',
  lexicon_bias: 'clean',
  punctuation_quirks: [],
});

const DIRECTNESS: Record<string, StableStyle['directness_level']> = {
  'Blunt Honest': 'blunt',
  'Dry Humor': 'blunt',
  'Calm Listener': 'soft',
  'Warm Caregiver': 'soft',
  'Gentle Coach': 'soft',
};

/**
 * StableStyleParams (turn-pipeline §2.4) from a template with the sampled values
 * applied (§3.2.1); the fixed fields always come from the template.
 * @param values @default the template's defaults
 */
export function styleOf(t: PersonaTemplate, values: PersonaValues = defaultValues(t)): StableStyle {
  return {
    msg_length_pref: values.sentence_length_bias,
    emoji_freq: values.emoji_usage,
    humor_mode: values.humor_mode,
    directness_level: DIRECTNESS[t.core_archetype] ?? 'balanced',
    followup_question_rate: values.friend_energy === 'proactive' ? 'medium' : 'low',
    lexicon_bias: t.lexicon_bias.language_cleanliness,
    punctuation_quirks: [...t.speech_style.punctuation_quirks],
  };
}

/** A 32-bit seed from the bytes of an id (deterministic, so a re-decision agrees): the offline responder's phrasing seed. */
export function seedFromId(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}
