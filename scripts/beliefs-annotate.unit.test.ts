import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { canonicalize } from '@hearth/beliefs';
import { goldLineSchema, inputLines, keyOfGold, matchAtoms, predict, prf, sample, score, type AtomKey } from './beliefs-annotate.js';

const key = (text: string, polarity: 'affirm' | 'deny', beliefType: AtomKey['beliefType']): AtomKey => ({ hash: canonicalize(text).canonicalHash, polarity, beliefType });

describe('prf', () => {
  it('computes precision, recall and their harmonic mean', () => {
    // 3 of 4 predicted are right, 3 of 6 gold are found.
    const f = prf({ matchedPredicted: 3, matchedGold: 3, predicted: 4, gold: 6 });
    expect(f.precision).toBeCloseTo(0.75, 10);
    expect(f.recall).toBeCloseTo(0.5, 10);
    expect(f.f1).toBeCloseTo((2 * 0.75 * 0.5) / 1.25, 10); // 0.6
    expect(f.f1).toBeCloseTo(0.6, 10);
  });

  it('is 0 when nothing matched, NaN when there is nothing at all', () => {
    expect(prf({ matchedPredicted: 0, matchedGold: 0, predicted: 2, gold: 3 }).f1).toBe(0);
    expect(prf({ matchedPredicted: 0, matchedGold: 0, predicted: 2, gold: 0 }).f1).toBe(0);
    expect(prf({ matchedPredicted: 0, matchedGold: 0, predicted: 0, gold: 0 }).f1).toBeNaN();
  });

  it('has no F1 for a type predicted only where gold typed otherwise', () => {
    const f = prf({ matchedPredicted: 2, matchedGold: 0, predicted: 2, gold: 0 });
    expect(f.precision).toBe(1);
    expect(f.recall).toBeNaN();
    expect(f.f1).toBeNaN();
  });
});

describe('matchAtoms', () => {
  it('matches on (canonical hash, polarity), not on surface form or type', () => {
    const m = matchAtoms([key("I'm patient.", 'affirm', 'TRAIT'), key('i like tea', 'deny', 'PREFERENCE')], [key('i am patient', 'affirm', 'VALUE'), key('i like tea', 'affirm', 'PREFERENCE')]);
    expect(m.pairs).toHaveLength(1);
    expect(m.pairs[0]![0].beliefType).toBe('TRAIT');
    expect(m.pairs[0]![1].beliefType).toBe('VALUE');
    expect(m.unmatchedPredicted.map((k) => k.polarity)).toEqual(['deny']);
    expect(m.unmatchedGold.map((k) => k.polarity)).toEqual(['affirm']);
  });

  it('matches one to one, preferring a gold atom of the same type', () => {
    const p = [key('i am calm', 'affirm', 'TRAIT')];
    const g = [key('i am calm', 'affirm', 'FEELING_STATE'), key('i am calm', 'affirm', 'TRAIT')];
    const m = matchAtoms(p, g);
    expect(m.pairs.map(([, gold]) => gold.beliefType)).toEqual(['TRAIT']);
    expect(m.unmatchedGold.map((k) => k.beliefType)).toEqual(['FEELING_STATE']);
  });
});

describe('score', () => {
  it('sums lines into overall and per-type figures with type accuracy on matched atoms', () => {
    const s = score([
      matchAtoms([key('i am calm', 'affirm', 'TRAIT'), key('i like rain', 'affirm', 'PREFERENCE')], [key('i am calm', 'affirm', 'TRAIT')]),
      matchAtoms([key('i can sing', 'deny', 'TRAIT')], [key('i can sing', 'deny', 'CAPABILITY_LIMIT'), key('i value time', 'affirm', 'VALUE')]),
    ]);
    // predicted 3, gold 3, matched 2: P = R = F1 = 2/3; 1 of 2 matched typed right.
    expect(s.lines).toBe(2);
    expect([s.overall.predicted, s.overall.gold, s.overall.matchedGold]).toEqual([3, 3, 2]);
    expect(s.overall.f1).toBeCloseTo(2 / 3, 10);
    expect(s.overall.typeAccuracy).toBeCloseTo(0.5, 10);
    // TRAIT: predicted twice (both matched), gold once (matched, typed right).
    expect([s.byType.TRAIT.predicted, s.byType.TRAIT.gold, s.byType.TRAIT.precision, s.byType.TRAIT.recall, s.byType.TRAIT.typeAccuracy]).toEqual([2, 1, 1, 1, 1]);
    // CAPABILITY_LIMIT: never predicted, its one gold matched under another type.
    expect(s.byType.CAPABILITY_LIMIT.recall).toBe(1);
    expect(s.byType.CAPABILITY_LIMIT.typeAccuracy).toBe(0);
    expect(s.byType.VALUE.recall).toBe(0);
    expect(s.byType.PREFERENCE.precision).toBe(0);
  });
});

describe('sample', () => {
  it('draws the same lines for the same seed, in file order, without repeats', () => {
    const items = Array.from({ length: 50 }, (_, i) => `line ${i}`);
    const a = sample(items, 7, 42);
    expect(a).toEqual(sample(items, 7, 42));
    expect(new Set(a).size).toBe(7);
    expect(a.map((l) => Number(l.split(' ')[1]))).toEqual([...a.map((l) => Number(l.split(' ')[1]))].sort((x, y) => x - y));
    expect(sample(items, 7, 43)).not.toEqual(a);
    expect(sample(items, 60, 1)).toEqual(items);
  });
});

describe('inputLines', () => {
  it('keeps distinct non-blank trimmed lines in order', () => {
    expect(inputLines(' I am calm \n\nI like rain\nI am calm\n')).toEqual(['I am calm', 'I like rain']);
  });
});

describe('the gold fixture', () => {
  const lines = readFileSync(resolve(import.meta.dirname, 'eval/fixtures/beliefs-gold.jsonl'), 'utf8').trim().split('\n');

  it('has 20–40 annotated lines of the export shape', () => {
    expect(lines.length).toBeGreaterThanOrEqual(20);
    expect(lines.length).toBeLessThanOrEqual(40);
    for (const l of lines) expect(goldLineSchema.parse(JSON.parse(l)).gold).not.toBeNull();
  });

  it('scores the current extractor end to end', () => {
    const s = score(lines.map((l) => goldLineSchema.parse(JSON.parse(l))).map((g) => matchAtoms(predict(g.text, g.holder).keys, (g.gold ?? []).map(keyOfGold))));
    expect(s.lines).toBe(lines.length);
    expect(s.overall.gold).toBe(lines.reduce((n, l) => n + (JSON.parse(l) as { gold: unknown[] }).gold.length, 0));
    expect(s.overall.f1).toBeGreaterThan(0);
    expect(s.overall.f1).toBeLessThanOrEqual(1);
  });
});
