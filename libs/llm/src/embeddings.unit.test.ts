import { cosine, createLocalEmbedder } from './embeddings.js';

describe('createLocalEmbedder', () => {
  const embedder = createLocalEmbedder({ dimensions: 64, model: 'hash' });

  it('gives the same unit vector for the same text, every time', async () => {
    // when
    const [a, b] = await embedder.embed(['I love sushi', 'I love sushi']);

    // then
    expect(a).toEqual(b);
    expect(a).toHaveLength(64);
    expect(Math.hypot(...a!)).toBeCloseTo(1, 10);
    expect(embedder.model).toBe('hash-64');
  });

  it('puts texts that share words nearer than texts that share none', async () => {
    // when
    const [sushi, sushiAgain, city] = await embedder.embed(['likes food: sushi', 'what sushi place', 'current city: busan']);

    // then
    expect(cosine(sushi!, sushiAgain!)).toBeGreaterThan(cosine(sushi!, city!));
  });

  it('embeds Hangul by its own characters, case and width folded', async () => {
    // when
    const [a, b, c, other] = await embedder.embed(['김치 찌개', '김치 찌개 좋아', 'ＳＵＳＨＩ', '서울에 살아']);
    const [d] = await embedder.embed(['sushi']);

    // then
    expect(cosine(a!, b!)).toBeGreaterThan(0.5);
    expect(cosine(a!, other!)).toBeLessThan(0.3);
    expect(c).toEqual(d);
  });

  it('gives a zero vector for text with no words, and rejects tiny dimensions', async () => {
    const [v] = await embedder.embed(['🍕 !!']);
    expect(v!.every((x) => x === 0)).toBe(true);
    expect(() => createLocalEmbedder({ dimensions: 4, model: 'x' })).toThrow(RangeError);
  });
});

describe('cosine', () => {
  it('is 1 for parallel, 0 for orthogonal, zero-length or mismatched vectors', () => {
    expect(cosine([1, 0], [2, 0])).toBeCloseTo(1);
    expect(cosine([1, 0], [0, 3])).toBe(0);
    expect(cosine([0, 0], [1, 0])).toBe(0);
    expect(cosine([1, 0, 0], [1, 0])).toBe(0);
  });
});
