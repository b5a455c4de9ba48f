import type { PersonaTemplate } from './library.js';

export interface StableStyle {
  msg_length_pref: string;
  emoji_freq: string;
  humor_mode: string;
  directness_level: 'soft' | 'balanced' | 'blunt';
  followup_question_rate: 'low' | 'medium';
  lexicon_bias: string;
  punctuation_quirks: string[];
}

export interface PersonaChoice {
  template: PersonaTemplate;
  seed: number;
  style: StableStyle;
}

const DIRECTNESS: Record<string, StableStyle['directness_level']> = {
  'Blunt Honest': 'blunt',
  'Dry Humor': 'blunt',
  'Calm Listener': 'soft',
  'Warm Caregiver': 'soft',
  'Gentle Coach': 'soft',
};

/** StableStyleParams (turn-pipeline §2.4) from a template's defaults. */
export function styleOf(t: PersonaTemplate): StableStyle {
  return {
    msg_length_pref: t.speech_style.sentence_length_bias,
    emoji_freq: t.speech_style.emoji_usage,
    humor_mode: t.humor_mode,
    directness_level: DIRECTNESS[t.core_archetype] ?? 'balanced',
    followup_question_rate: t.friend_energy === 'proactive' ? 'medium' : 'low',
    lexicon_bias: t.lexicon_bias.language_cleanliness,
    punctuation_quirks: [...t.speech_style.punctuation_quirks],
  };
}

/**
 * Placeholder pick: the template at `seed mod size`, its defaults frozen as the
 * style. The sampling mutations and the anti-cloning cap of §3.3–§3.4 replace
 * this in the persona issue; the seed is recorded either way.
 */
export function pickPersona(library: readonly PersonaTemplate[], seed: number): PersonaChoice {
  const template = library[seed % library.length]!;
  return { template, seed, style: styleOf(template) };
}

/** A 32-bit seed from the bytes of an id (deterministic, so a re-decision agrees). */
export function seedFromId(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}
