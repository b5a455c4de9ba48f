import { KnownPositions } from './known-positions.js';

describe('KnownPositions', () => {
  it('never moves a position back, and forgets on demand', () => {
    const known = new KnownPositions();
    known.set('a', 5);
    known.set('a', 3);
    expect(known.get('a')).toBe(5);
    known.forget('a');
    expect(known.get('a')).toBeUndefined();
  });

  it('stays bounded: starts over when full rather than growing', () => {
    const known = new KnownPositions(2);
    known.set('a', 1);
    known.set('b', 2);
    known.set('b', 3);
    expect([known.get('a'), known.get('b')]).toEqual([1, 3]);
    known.set('c', 4);
    expect([known.get('a'), known.get('b'), known.get('c')]).toEqual([undefined, undefined, 4]);
  });
});
