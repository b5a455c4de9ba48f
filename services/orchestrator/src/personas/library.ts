import { z } from 'zod';
import { readFileSync } from 'node:fs';
import { PERSONA } from '../config.js';

const level = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values);

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
    sentence_length_bias: level(['short', 'medium', 'long']),
    emoji_usage: level(['none', 'light', 'frequent']),
    punctuation_quirks: z.array(z.string()).max(2),
  }),
  humor_mode: level(['none', 'light_sarcasm', 'frequent_jokes', 'deadpan']),
  friend_energy: level(['passive', 'balanced', 'proactive']),
});

export type PersonaTemplate = z.infer<typeof personaTemplateSchema>;

export class PersonaLibraryError extends Error {
  readonly code = 'PERSONA_LIBRARY_INVALID';
}

/**
 * Validates a library against turn-pipeline §3.2 and specs/README.md: exactly
 * 24 templates, unique ids, all ten archetypes, and broad combo coverage.
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
  const combos = new Set(templates.map((t) => `${t.core_archetype}|${t.humor_mode}|${t.friend_energy}`));
  if (combos.size !== templates.length) problems.push(`${templates.length - combos.size} templates repeat a default (archetype, humor_mode, friend_energy)`);
  if (problems.length > 0) throw new PersonaLibraryError(`persona library: ${problems.join('; ')}`);
  return templates;
}

/** The library file shipped beside this module. */
export const LIBRARY_FILE = new URL('./templates.json', import.meta.url);

/** The library shipped with the service, validated once at load. */
export const PERSONA_LIBRARY: readonly PersonaTemplate[] = Object.freeze(
  validateLibrary(JSON.parse(readFileSync(LIBRARY_FILE, 'utf8'))),
);
