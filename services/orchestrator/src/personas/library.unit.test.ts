import { PERSONA } from '../config.js';
import { PERSONA_LIBRARY, PersonaLibraryError, reachableCombos, validateLibrary } from './library.js';
import { seedFromId, styleOf } from './assign.js';

describe('persona library (turn-pipeline §3.2, §3.2.1)', () => {
  it('has 24 templates with unique ids covering all ten archetypes', () => {
    expect(PERSONA_LIBRARY).toHaveLength(24);
    expect(new Set(PERSONA_LIBRARY.map((t) => t.template_id)).size).toBe(24);
    expect(new Set(PERSONA_LIBRARY.map((t) => t.core_archetype))).toEqual(new Set(PERSONA.archetypes));
  });

  it('gives every template its own default combo key', () => {
    const combos = PERSONA_LIBRARY.map((t) => `${t.core_archetype}|${t.humor_mode}|${t.friend_energy}`);
    expect(new Set(combos).size).toBe(24);
  });

  it('rejects a library with a missing archetype or a wrong size', () => {
    const broken = { templates: PERSONA_LIBRARY.slice(0, 23) };
    expect(() => validateLibrary(broken)).toThrow(PersonaLibraryError);
    const noHype = { templates: PERSONA_LIBRARY.map((t) => (t.core_archetype === 'Hype Bestie' ? { ...t, core_archetype: 'Soft Nerd' } : t)) };
    expect(() => validateLibrary(noHype)).toThrow(/Hype Bestie/);
  });

  it('rejects a taboo list with a topic that is not a canonical TopicID', () => {
    // given
    const raw = { templates: PERSONA_LIBRARY.map((t) => (t.template_id === 'PT03' ? { ...t, taboo_soft_bounds: ['POLITICS', 'politics'] } : t)) };

    // when / then
    expect(() => validateLibrary(raw)).toThrow(/PT03: taboo_soft_bounds not canonical TopicIDs: politics/);
  });

  it('gives every template 3–5 first-person self-statements, no two templates the same (issue 16)', () => {
    for (const t of PERSONA_LIBRARY) {
      expect(t.self_statements.length).toBeGreaterThanOrEqual(PERSONA.selfStatements.min);
      expect(t.self_statements.length).toBeLessThanOrEqual(PERSONA.selfStatements.max);
      for (const s of t.self_statements) expect(s).toMatch(/^I\b.*\.$/);
    }
    expect(new Set(PERSONA_LIBRARY.map((t) => JSON.stringify([...t.self_statements].sort()))).size).toBe(24);
    expect(PERSONA_LIBRARY.find((t) => t.template_id === 'PT01')!.self_statements).toContain('I like quiet mornings.');
  });

  it('rejects self-statements that are missing, too many, not first person, repeated, or naming a topic', () => {
    const withStatements = (id: string, self_statements: string[]) => ({ templates: PERSONA_LIBRARY.map((t) => (t.template_id === id ? { ...t, self_statements } : t)) });
    const { self_statements: _dropped, ...bare } = PERSONA_LIBRARY[0]!;
    expect(() => validateLibrary({ templates: [bare, ...PERSONA_LIBRARY.slice(1)] })).toThrow(/self_statements/);
    expect(() => validateLibrary(withStatements('PT02', ['I am kind.', 'I am warm.']))).toThrow(PersonaLibraryError);
    expect(() => validateLibrary(withStatements('PT02', ['I am kind.', 'I am warm.', 'I am calm.', 'I am here.', 'I am fine.', 'I am ok.']))).toThrow(PersonaLibraryError);
    expect(() => validateLibrary(withStatements('PT02', ['You are kind.', 'I am warm.', 'I am calm.']))).toThrow(/PT02: self-statement is not one first-person sentence: "You are kind."/);
    expect(() => validateLibrary(withStatements('PT02', ['I am warm.', 'I am warm!', 'I am calm.']))).toThrow(/not one first-person sentence|repeated/);
    expect(() => validateLibrary(withStatements('PT02', ['I am warm.', 'I am  warm.', 'I am calm.']))).toThrow(/PT02: self-statement repeated/);
    expect(() => validateLibrary(withStatements('PT02', ['I love the election season.', 'I am warm.', 'I am calm.']))).toThrow(/PT02: self-statement names a topic \(POLITICS\)/);
  });

  it('rejects two templates with the same self-statements', () => {
    const same = PERSONA_LIBRARY.find((t) => t.template_id === 'PT01')!.self_statements;
    const raw = { templates: PERSONA_LIBRARY.map((t) => (t.template_id === 'PT11' ? { ...t, self_statements: [...same].reverse() } : t)) };
    expect(() => validateLibrary(raw)).toThrow(/PT11: same self_statements as PT01/);
  });

  it('reaches all 12 (humor_mode, friend_energy) pairs of every archetype: 120 combos', () => {
    // when
    const combos = reachableCombos(PERSONA_LIBRARY);

    // then
    expect(combos).toHaveLength(120);
    expect(new Set(combos).size).toBe(120);
    expect(combos[0]).toBe('Calm Listener|none|passive');
  });

  it('derives the style from sampled values when given, from the defaults otherwise', () => {
    // given
    const t = PERSONA_LIBRARY[0]!;
    const values = { sentence_length_bias: 'long', emoji_usage: 'frequent', humor_mode: 'deadpan', friend_energy: 'proactive' } as const;

    // when
    const style = styleOf(t, values);

    // then
    expect(style).toMatchObject({ msg_length_pref: 'long', emoji_freq: 'frequent', humor_mode: 'deadpan', followup_question_rate: 'medium' });
    expect(style.lexicon_bias).toBe(t.lexicon_bias.language_cleanliness);
    expect(styleOf(t).humor_mode).toBe(t.humor_mode);
  });

  it('derives the same 32-bit seed from the same id', () => {
    const seed = seedFromId('6f1c2a34-0000-4000-8000-000000000001');
    expect(seedFromId('6f1c2a34-0000-4000-8000-000000000001')).toBe(seed);
    expect(seedFromId('6f1c2a34-0000-4000-8000-000000000002')).not.toBe(seed);
    expect(Number.isInteger(seed) && seed >= 0 && seed < 2 ** 32).toBe(true);
  });
});
