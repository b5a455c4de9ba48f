import { z } from 'zod';
import { readFileSync } from 'node:fs';
import { detectTopics, isTopicId, normalizeUserText } from '@hearth/text';
import { PERSONA } from '../config.js';
import { comboKey } from './cap.js';

const level = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values);

// The value sets of turn-pipeline §2.3. Their order is the order sampling draws
// from, so reordering them changes which persona a stored seed means.
export const SENTENCE_LENGTHS = ['short', 'medium', 'long'] as const;
export const EMOJI_USAGES = ['none', 'light', 'frequent'] as const;
export const HUMOR_MODES = ['none', 'light_sarcasm', 'frequent_jokes', 'deadpan'] as const;
export const FRIEND_ENERGIES = ['passive', 'balanced', 'proactive'] as const;

/** PersonaTemplate of turn-pipeline §2.3 as stored in the library file. */
export const personaTemplateSchema = z.object({
  template_id: z.string().regex(/^PT\d{2}$/),
  core_archetype: level(PERSONA.archetypes),
  emotional_expression_level: level(['restrained', 'normal', 'expressive']),
  taboo_soft_bounds: z.array(z.string()),
  lexicon_bias: z.object({
    language_cleanliness: level(['clean', 'slang', 'internet_shorthand']),
    hint_tokens: z.array(z.string()).max(12),
  }),
  speech_style: z.object({
    sentence_length_bias: level(SENTENCE_LENGTHS),
    emoji_usage: level(EMOJI_USAGES),
    punctuation_quirks: z.array(z.string()).max(2),
  }),
  humor_mode: level(HUMOR_MODES),
  friend_energy: level(FRIEND_ENERGIES),
  /**
   * What the persona says of itself, in its own voice (issue 16): PersonaAssigned
   * carries them and the belief graph seeds the companion's first identity
   * beliefs from them; the offline responder says them back now and then.
   */
  self_statements: z.array(z.string().min(1)).min(PERSONA.selfStatements.min).max(PERSONA.selfStatements.max),
});

export type PersonaTemplate = z.infer<typeof personaTemplateSchema>;

/** The values sampling may mutate (§3.2.1); punctuation_quirks stay the template's. */
export interface PersonaValues {
  sentence_length_bias: PersonaTemplate['speech_style']['sentence_length_bias'];
  emoji_usage: PersonaTemplate['speech_style']['emoji_usage'];
  humor_mode: PersonaTemplate['humor_mode'];
  friend_energy: PersonaTemplate['friend_energy'];
}

/** A template's defaults, before any mutation. */
export function defaultValues(t: PersonaTemplate): PersonaValues {
  return {
    sentence_length_bias: t.speech_style.sentence_length_bias,
    emoji_usage: t.speech_style.emoji_usage,
    humor_mode: t.humor_mode,
    friend_energy: t.friend_energy,
  };
}

export class PersonaLibraryError extends Error {
  readonly code = 'PERSONA_LIBRARY_INVALID';
}

// A self-statement is one first-person sentence ("I like quiet mornings."): the
// belief graph's atomizer reads "I …" clauses, and a reply says it as a sentence.
const SELF_STATEMENT = /^I(?:'m|'ve|'d)? [^.!?]*\.$/;

/** The problems of one template's self-statements (issue 16). */
function selfStatementProblems(t: PersonaTemplate): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const s of t.self_statements) {
    if (!SELF_STATEMENT.test(s)) problems.push(`${t.template_id}: self-statement is not one first-person sentence: "${s}"`);
    const norm = normalizeUserText(s).normNoPunct;
    if (seen.has(norm)) problems.push(`${t.template_id}: self-statement repeated: "${s}"`);
    seen.add(norm);
    // Said in a reply, a statement names no topic: it would trip the taboo gate (§2.8) or a user's suppressed topics.
    const topics = detectTopics(norm).map((m) => m.topicId);
    if (topics.length > 0) problems.push(`${t.template_id}: self-statement names a topic (${topics.join(', ')}): "${s}"`);
  }
  return problems;
}

/**
 * Validates a library against turn-pipeline §3.2 and specs/README.md: exactly
 * 24 templates, unique ids, all ten archetypes, broad combo coverage, and taboo
 * lists made only of canonical TopicIDs (§2.8); and (issue 16) 3–5
 * self-statements per template, each one first-person sentence naming no
 * topic, no two templates with the same set.
 */
export function validateLibrary(raw: unknown): PersonaTemplate[] {
  const parsed = z.object({ templates: z.array(personaTemplateSchema) }).safeParse(raw);
  if (!parsed.success) throw new PersonaLibraryError(`persona library: ${parsed.error.message}`);
  const templates = parsed.data.templates;
  const problems: string[] = [];
  if (templates.length !== PERSONA.librarySize) problems.push(`${templates.length} templates, expected ${PERSONA.librarySize}`);
  const ids = new Set(templates.map((t) => t.template_id));
  if (ids.size !== templates.length) problems.push('duplicate template ids');
  const archetypes = new Set(templates.map((t) => t.core_archetype));
  for (const a of PERSONA.archetypes) if (!archetypes.has(a)) problems.push(`archetype '${a}' missing`);
  const combos = new Set(templates.map((t) => comboKey(t.core_archetype, t.humor_mode, t.friend_energy)));
  if (combos.size !== templates.length) problems.push(`${templates.length - combos.size} templates repeat a default (archetype, humor_mode, friend_energy)`);
  for (const t of templates) {
    const unknown = t.taboo_soft_bounds.filter((topic) => !isTopicId(topic));
    if (unknown.length > 0) problems.push(`${t.template_id}: taboo_soft_bounds not canonical TopicIDs: ${unknown.join(', ')}`);
    problems.push(...selfStatementProblems(t));
  }
  // Each persona its own voice: no two templates say the same things of themselves.
  const voices = new Map<string, string>();
  for (const t of templates) {
    const key = JSON.stringify([...t.self_statements].map((s) => normalizeUserText(s).normNoPunct).sort());
    const other = voices.get(key);
    if (other) problems.push(`${t.template_id}: same self_statements as ${other}`);
    else voices.set(key, t.template_id);
  }
  if (problems.length > 0) throw new PersonaLibraryError(`persona library: ${problems.join('; ')}`);
  return templates;
}

/** The library file shipped beside this module. */
export const LIBRARY_FILE = new URL('./templates.json', import.meta.url);

/** The library shipped with the service, validated once at load. */
export const PERSONA_LIBRARY: readonly PersonaTemplate[] = Object.freeze(
  validateLibrary(JSON.parse(readFileSync(LIBRARY_FILE, 'utf8'))),
);

/**
 * Every combo key sampling can produce from `library`, in archetype, humor mode,
 * energy order. Sampling always mutates humor_mode or friend_energy (two of the
 * three categories), so a template never yields its own default (humor_mode,
 * friend_energy): an archetype with one template reaches 11 of its 12 pairs, one
 * with two or more templates reaches all 12.
 */
export function reachableCombos(library: readonly PersonaTemplate[]): string[] {
  const reachable = new Set<string>();
  for (const t of library) {
    for (const humor of HUMOR_MODES) {
      for (const energy of FRIEND_ENERGIES) {
        if (humor !== t.humor_mode || energy !== t.friend_energy) reachable.add(comboKey(t.core_archetype, humor, energy));
      }
    }
  }
  const ordered: string[] = [];
  for (const archetype of PERSONA.archetypes) {
    for (const humor of HUMOR_MODES) {
      for (const energy of FRIEND_ENERGIES) {
        const key = comboKey(archetype, humor, energy);
        if (reachable.has(key)) ordered.push(key);
      }
    }
  }
  return ordered;
}
