import { jsonChunks, StreamedArray, StreamedObject } from './json-stream.js';

async function* pagesOf<T>(...pages: T[][]): AsyncGenerator<T[]> {
  for (const p of pages) yield p;
}

async function text(chunks: AsyncIterable<string>): Promise<{ text: string; chunks: string[] }> {
  const all: string[] = [];
  for await (const c of chunks) all.push(c);
  return { text: all.join(''), chunks: all };
}

describe('jsonChunks', () => {
  it('writes plain values as JSON.stringify does', async () => {
    for (const v of [null, 1, 'a"\u2028b', [1, { a: [true] }], { x: null, d: new Date(0) }]) {
      expect((await text(jsonChunks(v))).text).toBe(JSON.stringify(v));
    }
  });

  it('writes a streamed object in its key order, with streamed arrays (nested)', async () => {
    // given
    const doc = new StreamedObject([
      ['a', 1],
      ['list', new StreamedArray(pagesOf([1, 2], [], [3]))],
      [
        'nested',
        new StreamedArray(
          pagesOf<unknown>([new StreamedObject([['id', 'c1'], ['items', new StreamedArray(pagesOf(['x'], ['y']))]]), { plain: true }], [new StreamedArray(pagesOf())]),
        ),
      ],
      ['later', { b: [2] }],
      ['missing', undefined],
    ]);

    // when
    const { text: json } = await text(jsonChunks(doc));

    // then
    expect(json).toBe('{"a":1,"list":[1,2,3],"nested":[{"id":"c1","items":["x","y"]},{"plain":true},[]],"later":{"b":[2]},"missing":null}');
    expect(Object.keys(JSON.parse(json) as object)).toEqual(['a', 'list', 'nested', 'later', 'missing']);
  });

  it('hands text on in chunks of about the given size, not one per item', async () => {
    const items = Array.from({ length: 1000 }, (_, i) => ({ i, text: 'x'.repeat(20) }));
    const { text: json, chunks } = await text(jsonChunks(new StreamedArray(pagesOf(items)), 4096));
    expect(JSON.parse(json)).toEqual(items);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.length).toBeLessThan(20);
    // Before the page was waited for, then full chunks, the rest of the page, and the end.
    expect(chunks[0]).toBe('[');
    for (const c of chunks.slice(1, -2)) expect(c.length).toBeGreaterThanOrEqual(4096);
    expect(chunks.at(-1)).toBe(']');
  });

  it('hands on what it has before it waits for the next page', async () => {
    // given: a source that waits until the text before it was taken
    const taken: string[] = [];
    async function* pages(): AsyncGenerator<number[]> {
      expect(taken.join('')).toBe('{"a":"x","list":[');
      yield [1];
      expect(taken.join('')).toBe('{"a":"x","list":[1');
      yield [2];
    }

    // when
    for await (const c of jsonChunks(new StreamedObject([['a', 'x'], ['list', new StreamedArray(pages())]]))) taken.push(c);

    // then
    expect(taken).toEqual(['{"a":"x","list":[', '1', ',2', ']}']);
  });

  it('ends with the error of a failing source, the text so far not being valid JSON', async () => {
    // given
    async function* failing(): AsyncGenerator<number[]> {
      yield [1, 2];
      throw new Error('database went away');
    }
    const written: string[] = [];

    // when
    const run = (async () => {
      for await (const c of jsonChunks(new StreamedObject([['list', new StreamedArray(failing())]]), 1)) written.push(c);
    })();

    // then
    await expect(run).rejects.toThrow('database went away');
    expect(written.join('')).toBe('{"list":[1,2');
    expect(() => JSON.parse(written.join(''))).toThrow();
  });
});
