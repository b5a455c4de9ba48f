import { emptyConfusion, metricsOf, tally } from './decode-metrics.js';

describe('tally', () => {
  it('puts each (predicted, label) pair in its cell', () => {
    const c = emptyConfusion();
    tally(c, true, true);
    tally(c, true, false);
    tally(c, false, true);
    tally(c, false, false);
    tally(c, false, false);
    expect(c).toEqual({ tp: 1, fp: 1, fn: 1, tn: 2 });
  });
});

describe('metricsOf', () => {
  it('computes accuracy, precision, recall, F1 and the false-positive rate', () => {
    // 10 dialogues: 3 found, 1 false alarm, 2 missed, 4 rightly left alone.
    const m = metricsOf({ tp: 3, fp: 1, fn: 2, tn: 4 });
    expect(m.n).toBe(10);
    expect(m.accuracy).toBeCloseTo(0.7, 10);
    expect(m.precision).toBeCloseTo(0.75, 10);
    expect(m.recall).toBeCloseTo(0.6, 10);
    // 2·0.75·0.6 / 1.35
    expect(m.f1).toBeCloseTo(0.9 / 1.35, 10);
    expect(m.falsePositiveRate).toBeCloseTo(0.2, 10);
  });

  it('gives NaN precision when nothing is predicted, and F1 0 when positives were missed', () => {
    const m = metricsOf({ tp: 0, fp: 0, fn: 5, tn: 5 });
    expect(m.precision).toBeNaN();
    expect(m.recall).toBe(0);
    expect(m.f1).toBe(0);
    expect(m.accuracy).toBe(0.5);
  });

  it('gives NaN for everything over no dialogue', () => {
    const m = metricsOf(emptyConfusion());
    expect(m.accuracy).toBeNaN();
    expect(m.f1).toBeNaN();
    expect(m.falsePositiveRate).toBeNaN();
  });

  it('measures the false-positive rate of an all-negative set', () => {
    const m = metricsOf({ tp: 0, fp: 3, fn: 0, tn: 97 });
    expect(m.falsePositiveRate).toBeCloseTo(0.03, 10);
    expect(m.recall).toBeNaN();
  });
});
