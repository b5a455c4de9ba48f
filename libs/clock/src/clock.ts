import { ClockError } from './errors.js';

/** The only way Hearth code gets the current time. Domain code receives one as an argument. */
export interface Clock {
  now(): Date;
}

/** Wall time. Production uses this; dev and test use the shared virtual clock. */
export const systemClock: Clock = Object.freeze({
  now: () => new Date(),
});

/** A clock that moves only when told to: for unit tests. */
export class ManualClock implements Clock {
  #ms: number;

  constructor(start: Date) {
    this.#ms = checkedTime(start);
  }

  now(): Date {
    return new Date(this.#ms);
  }

  /** Jumps to `date` (backwards too: tests may need it). */
  set(date: Date): void {
    this.#ms = checkedTime(date);
  }

  /** Moves forward by `ms` milliseconds and returns the new time. */
  advance(ms: number): Date {
    if (!Number.isFinite(ms) || ms < 0) {
      throw new ClockError('CLOCK_INVALID_ADVANCE', `cannot advance a clock by ${ms} ms: expected a finite amount >= 0`);
    }
    this.#ms += ms;
    return this.now();
  }
}

function checkedTime(date: Date): number {
  const ms = date.getTime();
  if (Number.isNaN(ms)) throw new ClockError('CLOCK_INVALID_ADVANCE', 'cannot set a clock to an invalid Date');
  return ms;
}
