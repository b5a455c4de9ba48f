import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { PERSONA } from '../config.js';
import { styleOf, type StableStyle } from './assign.js';
import { capAllows, comboKey, type CapWindow } from './cap.js';
import {
  defaultValues,
  EMOJI_USAGES,
  FRIEND_ENERGIES,
  HUMOR_MODES,
  PersonaLibraryError,
  SENTENCE_LENGTHS,
  type PersonaTemplate,
  type PersonaValues,
} from './library.js';

export type { PersonaValues } from './library.js';

/** A modifier category of §3.2.1. */
export type Category = (typeof PERSONA.categories)[number];

export class PersonaSeedError extends Error {
  readonly code = 'PERSONA_SEED_INVALID';
  override readonly name = 'PersonaSeedError';
}

/**
 * One sampled candidate, before the cap looks at it. Every candidate carries a
 * non-default value for all three categories; `mutated` names the two applied
 * first, `third` the one the cap may add.
 */
export interface PersonaCandidate {
  template: PersonaTemplate;
  /** The two categories mutated first, in `PERSONA.categories` order. */
  mutated: [Category, Category];
  third: Category;
  /** Values with the two mutations applied. */
  values: PersonaValues;
  /** Values with all three mutations applied. */
  thirdValues: PersonaValues;
}

/** The outcome of §3.3–§3.4 for one persona_seed and one cap window. */
export interface PersonaSample {
  template: PersonaTemplate;
  seed: number;
  values: PersonaValues;
  /** Mutated categories in `PERSONA.categories` order: two, or three with the third mutation. */
  mutated: Category[];
  /** stable_style_params, frozen (§2.4). */
  style: Readonly<StableStyle>;
  combo: string;
  /** Candidates evaluated, the accepted one included (1 to 1 + MAX_RESAMPLES). */
  candidates: number;
  /** `candidates - 1`. */
  resamples: number;
  thirdMutation: boolean;
  /** No candidate passed the cap; the §3.4.1 fallback chose the least used combo. */
  fallback: boolean;
  /** `N_prev` of the window the cap was checked against. */
  windowTotal: number;
  /** `k_prev` of the chosen combo. */
  windowComboCount: number;
}

type SpeechStyle = Pick<PersonaValues, 'sentence_length_bias' | 'emoji_usage'>;

// speech_style mutates as one (sentence_length_bias, emoji_usage) pair: 9 pairs, 8 of them != the default.
const SPEECH_STYLES: readonly SpeechStyle[] = SENTENCE_LENGTHS.flatMap((sentence_length_bias) =>
  EMOJI_USAGES.map((emoji_usage) => ({ sentence_length_bias, emoji_usage })),
);

type Rng = ReturnType<typeof xoroshiro128plus>;

function pick<T>(rng: Rng, values: readonly T[]): T {
  return values[uniformInt(rng, 0, values.length - 1)]!;
}

function mutate(rng: Rng, category: Category, v: PersonaValues): Partial<PersonaValues> {
  switch (category) {
    case 'speech_style':
      return pick(
        rng,
        SPEECH_STYLES.filter((s) => s.sentence_length_bias !== v.sentence_length_bias || s.emoji_usage !== v.emoji_usage),
      );
    case 'humor_mode':
      return { humor_mode: pick(rng, HUMOR_MODES.filter((h) => h !== v.humor_mode)) };
    case 'friend_energy':
      return { friend_energy: pick(rng, FRIEND_ENERGIES.filter((e) => e !== v.friend_energy)) };
    default: {
      const never: never = category;
      throw new Error(`unknown category ${String(never)}`);
    }
  }
}

function assertSeed(seed: number): void {
  if (!Number.isInteger(seed) || seed < 0 || seed >= 2 ** 32) {
    throw new PersonaSeedError(`persona_seed must be an integer in [0, 2^32), got ${seed}`);
  }
}

/**
 * The candidates of one persona_seed, in PRNG order, without end: a
 * xoroshiro128+ generator seeded with `seed` and jumped once. Each takes the
 * same six draws (archetype, template, category left out, one value per
 * category) whatever the cap decides, so the list depends on the seed and the
 * library only and the window only chooses from it.
 */
export function personaCandidates(library: readonly PersonaTemplate[], seed: number): Generator<PersonaCandidate, never> {
  // Checked here, not in the generator body, so a bad seed throws at the call.
  assertSeed(seed);
  const byArchetype = PERSONA.archetypes
    .map((archetype) => library.filter((t) => t.core_archetype === archetype))
    .filter((templates) => templates.length > 0);
  if (byArchetype.length === 0) throw new PersonaLibraryError('persona library is empty');
  const rng = xoroshiro128plus(seed | 0);
  // pure-rand puts the seed's bits straight into the state, so nearby seeds
  // would start with correlated draws (seeds 0..499 reach only 16 of the 24
  // templates); the library's jump spreads them over the whole state first.
  rng.jump();
  return drawCandidates(byArchetype, rng);
}

function* drawCandidates(byArchetype: readonly PersonaTemplate[][], rng: Rng): Generator<PersonaCandidate, never> {
  for (;;) {
    const archetype = pick(rng, byArchetype);
    const template = pick(rng, archetype);
    // Leaving one of the three out picks the PERSONA.mutatedCategories (two) uniformly.
    const third = pick(rng, PERSONA.categories);
    const defaults = defaultValues(template);
    let values = defaults;
    let thirdValues = defaults;
    for (const category of PERSONA.categories) {
      const change = mutate(rng, category, defaults);
      thirdValues = { ...thirdValues, ...change };
      if (category !== third) values = { ...values, ...change };
    }
    const mutated = PERSONA.categories.filter((c) => c !== third) as [Category, Category];
    yield { template, mutated, third, values, thirdValues };
  }
}

function comboOf(t: PersonaTemplate, v: PersonaValues): string {
  return comboKey(t.core_archetype, v.humor_mode, v.friend_energy);
}

/**
 * Samples a persona (turn-pipeline §3.2.1, §3.3) under the anti-cloning cap
 * (§3.4, §3.4.1). Pure: the result is a function of (library, seed, window).
 *
 * Each candidate is tried with its two mutations, then with the third added iff
 * the cap rejects it; after 1 + MAX_RESAMPLES rejected candidates the fallback
 * takes, among them in their three-mutation form, the combo with the smallest
 * `k_prev`, the earliest candidate on ties.
 * @throws PersonaSeedError when `seed` is not an integer in [0, 2^32)
 */
export function samplePersona(library: readonly PersonaTemplate[], seed: number, window: CapWindow): PersonaSample {
  const limit = 1 + PERSONA.antiCloning.maxResamples;
  const rejected: PersonaCandidate[] = [];
  const result = (c: PersonaCandidate, third: boolean, fallback: boolean, candidates: number): PersonaSample => {
    const values = third ? c.thirdValues : c.values;
    const combo = comboOf(c.template, values);
    const style = styleOf(c.template, values);
    Object.freeze(style.punctuation_quirks);
    return {
      template: c.template,
      seed,
      values,
      mutated: third ? [...PERSONA.categories] : [...c.mutated],
      style: Object.freeze(style),
      combo,
      candidates,
      resamples: candidates - 1,
      thirdMutation: third,
      fallback,
      windowTotal: window.total,
      windowComboCount: window.counts.get(combo) ?? 0,
    };
  };
  for (const c of personaCandidates(library, seed)) {
    if (capAllows(window, comboOf(c.template, c.values))) return result(c, false, false, rejected.length + 1);
    if (capAllows(window, comboOf(c.template, c.thirdValues))) return result(c, true, false, rejected.length + 1);
    rejected.push(c);
    if (rejected.length === limit) break;
  }
  const kPrev = (c: PersonaCandidate) => window.counts.get(comboOf(c.template, c.thirdValues)) ?? 0;
  let best = rejected[0]!;
  for (const c of rejected) if (kPrev(c) < kPrev(best)) best = c;
  return result(best, true, true, limit);
}
