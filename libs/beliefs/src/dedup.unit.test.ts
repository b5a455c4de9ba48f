import { dedupAtoms, type Dedupable } from './dedup.js';

const atom = (hash: string, conf: number, start: number, extra: Partial<Dedupable & { text: string }> = {}) => ({
  canonicalHash: hash,
  polarity: 'affirm' as const,
  beliefType: 'TRAIT' as const,
  atomConfidence: conf,
  spans: [{ start, end: start + 5 }],
  text: `${hash}@${start}`,
  ...extra,
});

describe('dedupAtoms (§4.6)', () => {
  it('keeps the most confident duplicate and merges all spans', () => {
    const { atoms, duplicatesRemoved } = dedupAtoms([atom('h1', 0.6, 10), atom('h1', 0.9, 0), atom('h1', 0.7, 20)]);
    expect(duplicatesRemoved).toBe(2);
    expect(atoms).toHaveLength(1);
    expect(atoms[0]!.text).toBe('h1@0');
    expect(atoms[0]!.atomConfidence).toBe(0.9);
    expect(atoms[0]!.spans).toEqual([
      { start: 0, end: 5 },
      { start: 10, end: 15 },
      { start: 20, end: 25 },
    ]);
  });

  it('keys on hash, polarity and type together', () => {
    const { atoms, duplicatesRemoved } = dedupAtoms([atom('h1', 0.8, 0), atom('h1', 0.8, 6, { polarity: 'deny' }), atom('h1', 0.8, 12, { beliefType: 'VALUE' }), atom('h2', 0.8, 18)]);
    expect(duplicatesRemoved).toBe(0);
    expect(atoms.map((a) => a.text)).toEqual(['h1@0', 'h1@6', 'h1@12', 'h2@18']);
  });

  it('keeps the first on a confidence tie and does not repeat a shared span', () => {
    const { atoms } = dedupAtoms([atom('h1', 0.8, 3), atom('h1', 0.8, 3)]);
    expect(atoms).toEqual([expect.objectContaining({ text: 'h1@3', spans: [{ start: 3, end: 8 }] })]);
  });

  it('does not mutate its input', () => {
    const input = [atom('h1', 0.6, 10), atom('h1', 0.9, 0)];
    dedupAtoms(input);
    expect(input[0]!.spans).toEqual([{ start: 10, end: 15 }]);
  });
});
