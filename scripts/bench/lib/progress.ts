import cliProgress from 'cli-progress';

/** Progress of the measured work (turns, assignments), on stderr. */
export interface Progress {
  tick(errors: number): void;
  stop(): void;
}

/**
 * A cli-progress bar when stderr is a terminal; otherwise one line at each
 * tenth of the way, so logs of CI runs stay short.
 */
export function createProgress(total: number, label: string, unit = 'turns'): Progress {
  const started = performance.now();
  const rate = (done: number): string => ((done * 1000) / Math.max(1, performance.now() - started)).toFixed(1);
  let done = 0;
  if (process.stderr.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        stream: process.stderr,
        format: `${label} {bar} {percentage}% | {value}/{total} | {rate} ${unit}/s | errors {errors} | eta {eta_formatted}`,
        hideCursor: true,
        clearOnComplete: false,
      },
      cliProgress.Presets.shades_classic,
    );
    bar.start(total, 0, { rate: '0.0', errors: 0 });
    return {
      tick(errors) {
        done++;
        bar.update(done, { rate: rate(done), errors });
      },
      stop: () => bar.stop(),
    };
  }
  let nextTenth = 1;
  return {
    tick(errors) {
      done++;
      while (nextTenth <= 10 && done * 10 >= total * nextTenth) {
        process.stderr.write(`[bench] ${label} ${done}/${total} (${nextTenth * 10}%), ${rate(done)} ${unit}/s, errors ${errors}\n`);
        nextTenth++;
      }
    },
    stop: () => undefined,
  };
}
