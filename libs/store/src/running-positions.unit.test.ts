import { KnownPositions } from './known-positions.js';
import { isRunningHere, registerRunning, runningAtLeast } from './running-positions.js';

describe('running positions', () => {
  it('answers from the registered runners of a handle and projection only', () => {
    const db = {};
    const known = new KnownPositions();
    known.set('s1', 5);
    const stop = registerRunning(db, 'turns', known);
    expect(runningAtLeast(db, 'turns', 's1', 5)).toBe(true);
    expect(runningAtLeast(db, 'turns', 's1', 6)).toBe(false);
    expect(runningAtLeast(db, 'other', 's1', 1)).toBeUndefined();
    expect(runningAtLeast({}, 'turns', 's1', 1)).toBeUndefined();
    stop();
    expect(isRunningHere(db, 'turns')).toBe(false);
    expect(runningAtLeast(db, 'turns', 's1', 5)).toBeUndefined();
  });

  it('a stop called twice leaves a later runner of the same projection registered', () => {
    const db = {};
    const first = registerRunning(db, 'turns', new KnownPositions());
    first();
    const later = new KnownPositions();
    later.set('s1', 3);
    registerRunning(db, 'turns', later);
    first();
    expect(runningAtLeast(db, 'turns', 's1', 3)).toBe(true);
  });
});
