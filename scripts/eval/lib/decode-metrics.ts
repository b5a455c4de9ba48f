// Binary classification figures for eval:decode: "the last turn contradicts the
// companion's earlier turns" predicted by the conflict engine against DECODE's
// is_contradiction label.

export interface Confusion {
  /** Predicted contradiction, labelled contradiction. */
  tp: number;
  /** Predicted contradiction, labelled consistent. */
  fp: number;
  /** Predicted consistent, labelled consistent. */
  tn: number;
  /** Predicted consistent, labelled contradiction. */
  fn: number;
}

export interface BinaryMetrics extends Confusion {
  n: number;
  /** NaN when there is nothing to divide by (no dialogue, no positive prediction, no positive label). */
  accuracy: number;
  precision: number;
  recall: number;
  f1: number;
  /** fp / (fp + tn): the share of consistent dialogues flagged. */
  falsePositiveRate: number;
}

export function emptyConfusion(): Confusion {
  return { tp: 0, fp: 0, tn: 0, fn: 0 };
}

/** Adds one judged dialogue to a confusion matrix (in place) and returns it. */
export function tally(c: Confusion, predicted: boolean, label: boolean): Confusion {
  if (predicted && label) c.tp++;
  else if (predicted) c.fp++;
  else if (label) c.fn++;
  else c.tn++;
  return c;
}

const ratio = (num: number, den: number): number => (den === 0 ? Number.NaN : num / den);

export function metricsOf(c: Confusion): BinaryMetrics {
  const n = c.tp + c.fp + c.tn + c.fn;
  const precision = ratio(c.tp, c.tp + c.fp);
  const recall = ratio(c.tp, c.tp + c.fn);
  // F1 is 0 when nothing was found right (tp = 0) but something was predicted or labelled.
  const f1 = c.tp === 0 ? (c.fp + c.fn === 0 ? Number.NaN : 0) : (2 * precision * recall) / (precision + recall);
  return {
    ...c,
    n,
    accuracy: ratio(c.tp + c.tn, n),
    precision,
    recall,
    f1,
    falsePositiveRate: ratio(c.fp, c.fp + c.tn),
  };
}
