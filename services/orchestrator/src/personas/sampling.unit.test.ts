import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { PERSONA } from '../config.js';
import { capAllows, capViolations, comboKey, maxAllowed, windowOf, type CapAssignment, type CapWindow } from './cap.js';
import { defaultValues, PERSONA_LIBRARY, PersonaLibraryError, reachableCombos, type PersonaTemplate } from './library.js';
import { personaCandidates, PersonaSeedError, samplePersona, type Category, type PersonaCandidate, type PersonaSample } from './sampling.js';

const EMPTY: CapWindow = { total: 0, counts: new Map() };
const LIMIT = 1 + PERSONA.antiCloning.maxResamples;

const first = (library: readonly PersonaTemplate[], seed: number, n: number): PersonaCandidate[] => {
  const out: PersonaCandidate[] = [];
  for (const c of personaCandidates(library, seed)) {
    out.push(c);
    if (out.length === n) break;
  }
  return out;
};
const comboOf = (t: PersonaTemplate, v: { humor_mode: string; friend_energy: string }) => comboKey(t.core_archetype, v.humor_mode, v.friend_energy);

/** Whether category `c` of `s` differs from its template default. */
const changed = (s: Pick<PersonaSample, 'template' | 'values'>, c: Category): boolean => {
  const d = defaultValues(s.template);
  switch (c) {
    case 'speech_style':
      return s.values.sentence_length_bias !== d.sentence_length_bias || s.values.emoji_usage !== d.emoji_usage;
    case 'humor_mode':
      return s.values.humor_mode !== d.humor_mode;
    case 'friend_energy':
      return s.values.friend_energy !== d.friend_energy;
    default: {
      const never: never = c;
      throw new Error(String(never));
    }
  }
};

describe('samplePersona: determinism (turn-pipeline §3.2.1, §3.3)', () => {
  it('given the same seed and window, then the sample is identical', () => {
    // given
    const window: CapWindow = { total: 40, counts: new Map([['Calm Listener|none|balanced', 3]]) };

    // when
    const a = samplePersona(PERSONA_LIBRARY, 123_456_789, window);
    const b = samplePersona(PERSONA_LIBRARY, 123_456_789, window);

    // then
    expect(b).toEqual(a);
    expect(b.template).toBe(a.template);
  });

  it('given different seeds, then the templates spread over the library', () => {
    const templates = new Set<string>();
    for (let seed = 0; seed < 500; seed++) templates.add(samplePersona(PERSONA_LIBRARY, seed, EMPTY).template.template_id);
    expect(templates.size).toBe(24);
  });

  it('given seeds at both ends of the 32-bit range, then both sample', () => {
    expect(samplePersona(PERSONA_LIBRARY, 0, EMPTY).seed).toBe(0);
    expect(samplePersona(PERSONA_LIBRARY, 2 ** 32 - 1, EMPTY).seed).toBe(2 ** 32 - 1);
    expect(samplePersona(PERSONA_LIBRARY, 2 ** 31, EMPTY)).not.toEqual(samplePersona(PERSONA_LIBRARY, 0, EMPTY));
  });
});

describe('samplePersona: sampling mutations when the cap permits', () => {
  it('given an empty window, then every seed mutates exactly two categories to non-default values', () => {
    for (let seed = 0; seed < 1_000; seed++) {
      // when
      const s = samplePersona(PERSONA_LIBRARY, seed * 2_654_435_761 % 2 ** 32, EMPTY);

      // then
      expect(s.mutated).toHaveLength(PERSONA.mutatedCategories);
      expect(new Set(s.mutated).size).toBe(2);
      for (const c of PERSONA.categories) expect([seed, c, changed(s, c)]).toEqual([seed, c, s.mutated.includes(c)]);
      expect(s).toMatchObject({ thirdMutation: false, fallback: false, candidates: 1, resamples: 0, windowTotal: 0, windowComboCount: 0 });
      expect(s.combo).toBe(comboOf(s.template, s.values));
    }
  });

  it('given a sample, then its frozen style is the template with the sampled values applied', () => {
    // when
    const s = samplePersona(PERSONA_LIBRARY, 42, EMPTY);

    // then
    expect(s.style).toEqual({
      msg_length_pref: s.values.sentence_length_bias,
      emoji_freq: s.values.emoji_usage,
      humor_mode: s.values.humor_mode,
      directness_level: expect.stringMatching(/^(soft|balanced|blunt)$/) as unknown,
      followup_question_rate: s.values.friend_energy === 'proactive' ? 'medium' : 'low',
      lexicon_bias: s.template.lexicon_bias.language_cleanliness,
      punctuation_quirks: s.template.speech_style.punctuation_quirks,
    });
    expect(Object.isFrozen(s.style)).toBe(true);
    expect(Object.isFrozen(s.style.punctuation_quirks)).toBe(true);
    expect(s.style.punctuation_quirks).not.toBe(s.template.speech_style.punctuation_quirks);
  });

  it('given 2,000 seeds, then all ten archetypes, every template and every left-out category appear', () => {
    // given
    const rng = xoroshiro128plus(7);
    const archetypes = new Map<string, number>();
    const templates = new Set<string>();
    const pairs = new Set<string>();

    // when
    for (let i = 0; i < 2_000; i++) {
      const s = samplePersona(PERSONA_LIBRARY, uniformInt(rng, 0, 2 ** 32 - 1), EMPTY);
      archetypes.set(s.template.core_archetype, (archetypes.get(s.template.core_archetype) ?? 0) + 1);
      templates.add(s.template.template_id);
      pairs.add(s.mutated.join('+'));
    }

    // then: archetypes are drawn uniformly (expected 200 each, sd about 13)
    expect([...archetypes.keys()].sort()).toEqual([...PERSONA.archetypes].sort());
    for (const n of archetypes.values()) expect(n).toBeGreaterThan(120);
    expect(templates.size).toBe(24);
    expect(pairs).toEqual(new Set(['humor_mode+friend_energy', 'speech_style+friend_energy', 'speech_style+humor_mode']));
  });
});

describe('samplePersona: the third mutation (§3.2.1: iff the cap would be violated)', () => {
  const seedWhoseFirstCandidate = (third: (c: Category) => boolean): { seed: number; candidate: PersonaCandidate } => {
    for (let seed = 0; ; seed++) {
      const [candidate] = first(PERSONA_LIBRARY, seed, 1);
      if (third(candidate!.third)) return { seed, candidate: candidate! };
    }
  };

  it('given the two-mutation combo is saturated and the third category changes the combo, then the third mutation is applied', () => {
    // given: N_prev = 1 holding the candidate's combo, so k_new 2 > max_allowed(2) = 1
    const { seed, candidate } = seedWhoseFirstCandidate((c) => c !== 'speech_style');
    const saturated = comboOf(candidate.template, candidate.values);
    const window: CapWindow = { total: 1, counts: new Map([[saturated, 1]]) };

    // when
    const s = samplePersona(PERSONA_LIBRARY, seed, window);

    // then
    expect(s).toMatchObject({ thirdMutation: true, fallback: false, candidates: 1, resamples: 0, windowTotal: 1, windowComboCount: 0 });
    expect(s.template).toBe(candidate.template);
    expect(s.values).toEqual(candidate.thirdValues);
    expect(s.mutated).toEqual([...PERSONA.categories]);
    for (const c of PERSONA.categories) expect(changed(s, c)).toBe(true);
    expect(s.combo).not.toBe(saturated);
    expect(capAllows(window, s.combo)).toBe(true);
  });

  it('given the saturated candidate has speech_style left as its third category, then the third mutation cannot help and it resamples', () => {
    // given
    const { seed, candidate } = seedWhoseFirstCandidate((c) => c === 'speech_style');
    const saturated = comboOf(candidate.template, candidate.values);
    const window: CapWindow = { total: 1, counts: new Map([[saturated, 1]]) };

    // when
    const s = samplePersona(PERSONA_LIBRARY, seed, window);

    // then: the accepted sample is a later candidate of the same seed
    expect(s.candidates).toBeGreaterThanOrEqual(2);
    expect(s.resamples).toBe(s.candidates - 1);
    expect(s.fallback).toBe(false);
    expect(s.combo).not.toBe(saturated);
    expect(capAllows(window, s.combo)).toBe(true);
    const accepted = first(PERSONA_LIBRARY, seed, s.candidates)[s.candidates - 1]!;
    expect(s.values).toEqual(s.thirdMutation ? accepted.thirdValues : accepted.values);
  });
});

describe('samplePersona: fallback (§3.4.1, MAX_RESAMPLES = 50)', () => {
  // PT01 alone: Calm Listener, default (none, passive); the 12 combos of its archetype.
  const single = PERSONA_LIBRARY.filter((t) => t.template_id === 'PT01');
  const archetypeCombos = ['none', 'light_sarcasm', 'frequent_jokes', 'deadpan'].flatMap((h) =>
    ['passive', 'balanced', 'proactive'].map((e) => comboKey('Calm Listener', h, e)),
  );
  const TOTAL = 100;
  const CAP = maxAllowed(TOTAL + 1); // 7: k_prev = 7 fails, since k_new 8 > 7
  const SEED = 2_024;

  it('given one template, then 11 of its archetype\'s 12 combos are reachable (never its own default pair)', () => {
    expect(reachableCombos(single)).toEqual(archetypeCombos.filter((c) => c !== 'Calm Listener|none|passive'));
  });

  it('given every combo at the cap, then it evaluates 51 candidates and ties go to the earliest candidate', () => {
    // given
    const window: CapWindow = { total: TOTAL, counts: new Map(archetypeCombos.map((c) => [c, CAP])) };
    const candidates = first(single, SEED, LIMIT);
    expect(candidates.some((c) => capAllows(window, comboOf(c.template, c.values)) || capAllows(window, comboOf(c.template, c.thirdValues)))).toBe(false);

    // when
    const s = samplePersona(single, SEED, window);

    // then
    expect(s).toMatchObject({ fallback: true, thirdMutation: true, candidates: 51, resamples: 50, windowTotal: TOTAL, windowComboCount: CAP });
    expect(s.values).toEqual(candidates[0]!.thirdValues);
    expect(s.mutated).toEqual([...PERSONA.categories]);
    expect(Object.isFrozen(s.style)).toBe(true);
  });

  it('given one combo less used than the rest (all still refused), then the fallback chooses it at its earliest candidate', () => {
    // given: every final-form candidate combo mutates both humor and energy; pick the tenth candidate's
    const candidates = first(single, SEED, LIMIT);
    const target = comboOf(single[0]!, candidates[9]!.thirdValues);
    const earliest = candidates.find((c) => comboOf(c.template, c.thirdValues) === target)!;
    const window: CapWindow = { total: TOTAL, counts: new Map(archetypeCombos.map((c) => [c, c === target ? CAP : CAP + 1])) };
    expect(candidates.filter((c) => comboOf(c.template, c.thirdValues) !== target).length).toBeGreaterThan(0);

    // when
    const s = samplePersona(single, SEED, window);

    // then
    expect(s).toMatchObject({ fallback: true, candidates: 51, combo: target, windowComboCount: CAP });
    expect(s.values).toEqual(earliest.thirdValues);
  });
});

describe('samplePersona: 2,000 sequential assignments under the cap', () => {
  it('given seeds from a seeded PRNG one minute apart, then no accepted combo ever exceeds max_allowed at its instant', () => {
    // given
    const rng = xoroshiro128plus(20_261_122);
    const start = Date.UTC(2026, 10, 22);
    const log: CapAssignment[] = [];
    const refused: number[] = [];
    let pressured = 0;
    let fallbacks = 0;

    // when
    for (let i = 0; i < 2_000; i++) {
      const now = new Date(start + i * 60_000);
      const window = windowOf(log, now);
      const s = samplePersona(PERSONA_LIBRARY, uniformInt(rng, 0, 2 ** 32 - 1), window);
      if (s.fallback) fallbacks++;
      else if (!capAllows(window, s.combo) || s.windowComboCount + 1 > maxAllowed(s.windowTotal + 1)) refused.push(i);
      if (s.resamples > 0 || s.thirdMutation) pressured++;
      log.push({ combo: s.combo, assignedAt: now });
    }

    // then
    expect(refused).toEqual([]);
    expect(fallbacks).toBe(0);
    expect(pressured).toBeGreaterThan(0); // the early stage (N < 29) did force resamples or third mutations
    expect(capViolations(log, PERSONA.antiCloning.windowMs, 'assigned')).toEqual([]);
    // N never shrinks in this run (one per minute), so no combo drifts over either.
    expect(capViolations(log)).toEqual([]);
  });
});

describe('samplePersona: input validation', () => {
  it.each([-1, 2 ** 32, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('given seed %p, then it throws PERSONA_SEED_INVALID', (seed) => {
    expect(() => samplePersona(PERSONA_LIBRARY, seed, EMPTY)).toThrow(PersonaSeedError);
    expect(() => personaCandidates(PERSONA_LIBRARY, seed)).toThrow(expect.objectContaining({ code: 'PERSONA_SEED_INVALID', name: 'PersonaSeedError' }) as Error);
  });

  it('given an empty library, then it throws a library error', () => {
    expect(() => samplePersona([], 1, EMPTY)).toThrow(PersonaLibraryError);
  });
});
