import { TopK } from './top-k.js';

const byValue = (a: number, b: number) => a - b;

describe('TopK', () => {
  it('keeps the best `limit` items, whatever order they come in, and hands back the rest', () => {
    // given 1,000 numbers in a scrambled order, smaller better
    const items = Array.from({ length: 1_000 }, (_, i) => (i * 7919) % 1_000);
    const top = new TopK(10, byValue);

    // when
    const out = items.map((x) => top.offer(x)).filter((x) => x !== undefined);

    // then
    expect(top.sorted()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(out.sort(byValue)).toEqual(Array.from({ length: 990 }, (_, i) => i + 10));
  });

  it('keeps the first of equals and says what it would admit', () => {
    // given
    const top = new TopK<[number, string]>(2, (a, b) => a[0] - b[0]);
    top.offer([1, 'a']);
    top.offer([2, 'b']);

    // then
    expect(top.admits([2, 'c'])).toBe(false);
    expect(top.offer([2, 'c'])).toEqual([2, 'c']);
    expect(top.offer([0, 'd'])).toEqual([2, 'b']);
    expect(top.sorted()).toEqual([
      [0, 'd'],
      [1, 'a'],
    ]);
  });

  it('keeps nothing for a limit of 0', () => {
    const top = new TopK(0, byValue);
    expect(top.offer(1)).toBe(1);
    expect(top.sorted()).toEqual([]);
  });
});
