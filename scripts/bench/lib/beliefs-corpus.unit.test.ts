import { decompose } from '@hearth/beliefs';
import { generateNodeTexts, generateStatements } from './beliefs-corpus.js';

describe('generateStatements', () => {
  it('gives n distinct statements, the same every time', () => {
    const a = generateStatements(3_000);
    expect(a).toHaveLength(3_000);
    expect(new Set(a.map((s) => s.toLowerCase())).size).toBe(3_000);
    expect(generateStatements(50)).toEqual(a.slice(0, 50));
  });

  it('mostly yields atoms through the offline pipeline', () => {
    const withAtoms = generateStatements(400).filter((text) => decompose({ text, holder: 'companion', conversationId: 'c' }).atoms.length > 0);
    expect(withAtoms.length).toBeGreaterThan(300);
  });
});

describe('generateNodeTexts', () => {
  it('gives texts of exactly one atom each, all of distinct canonical hashes', () => {
    const texts = generateNodeTexts(2_000);
    const hashes = texts.map((text) => {
      const atoms = decompose({ text, holder: 'companion', conversationId: 'c' }).atoms;
      expect(atoms).toHaveLength(1);
      return atoms[0]!.canonicalHash;
    });
    expect(new Set(hashes).size).toBe(2_000);
  });

  it('keeps texts distinct past the word-list product', () => {
    const texts = generateNodeTexts(35_000);
    expect(new Set(texts).size).toBe(35_000);
    expect(texts[34_999]).toMatch(/ in year \d+$/);
  });
});
