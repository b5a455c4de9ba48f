import { createHash } from 'node:crypto';
import { BELIEF_CONFIG } from './config.js';
import * as lexicon from './lexicon.js';
import { PROMPT_TEXTS } from './prompts.js';

/**
 * The revision of the rule code (atomizer, canonical forms, conflict rules):
 * raise it with any change to them that the lexicons do not show, so that what
 * the new rules extract gets a version of its own. 2: coordinated objects split,
 * possessions in their generic plural, exclusive-value conflicts.
 */
export const RULES_REVISION = 2;

/**
 * §6 extractor version: sha256[:16] over the prompt texts, the cue lists, the
 * model ids and the match / no_match thresholds. "Cue lists" here are all the
 * lexicons (the epistemic cues and the rules atomizer's word lists): a change
 * to any of them changes what is extracted, so it gets a new version and can be
 * rolled back. Model ids are taken in the order given (atomizer, epistemics,
 * verifier, embedder); the offline path passes its own ids ("rules", "hearth-local-256").
 */
export function extractorVersion(input: { models: readonly string[] }): string {
  const material = JSON.stringify({
    rules: RULES_REVISION,
    prompts: PROMPT_TEXTS,
    cues: Object.keys(lexicon)
      .sort()
      .map((k) => [k, (lexicon as Record<string, unknown>)[k]]),
    models: input.models,
    thresholds: { match: BELIEF_CONFIG.resolution.matchThreshold, noMatch: BELIEF_CONFIG.resolution.noMatchThreshold },
  });
  return createHash('sha256').update(material, 'utf8').digest('hex').slice(0, 16);
}
