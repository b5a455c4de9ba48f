import { PERSONA } from '../config.js';
import { PERSONA_LIBRARY, PersonaLibraryError, validateLibrary } from './library.js';
import { pickPersona, seedFromId } from './assign.js';

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

  it('picks deterministically from a seed derived from the cause', () => {
    const seed = seedFromId('6f1c2a34-0000-4000-8000-000000000001');
    expect(seedFromId('6f1c2a34-0000-4000-8000-000000000001')).toBe(seed);
    const a = pickPersona(PERSONA_LIBRARY, seed);
    expect(a.template).toBe(PERSONA_LIBRARY[seed % 24]);
    expect(a.style.humor_mode).toBe(a.template.humor_mode);
  });
});
