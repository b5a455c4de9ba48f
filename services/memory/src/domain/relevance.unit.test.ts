import { byRank, fuseRankings, idf, memoryText, relevance, terms, withCosine, type TermStats } from './relevance.js';

/** The counts of a user's memories, as the lexical index keeps them. */
function statsOf(memories: readonly (readonly string[])[]): TermStats {
  const df = new Map<string, number>();
  for (const m of memories) for (const t of new Set(m)) df.set(t, (df.get(t) ?? 0) + 1);
  return { documentCount: memories.length, documentFrequency: (t) => df.get(t) ?? 0 };
}

/** A user's memories as the index reads them (key and value), and the relevance of each to a message. */
function relevanceTo(message: string, memories: Record<string, [key: string, value: string]>): Record<string, number> {
  const read = Object.fromEntries(Object.entries(memories).map(([name, [key, value]]) => [name, terms(memoryText(key, value))]));
  const stats = statsOf(Object.values(read));
  return Object.fromEntries(Object.entries(read).map(([name, t]) => [name, relevance(terms(message), t, stats)]));
}

const MEMORIES: Record<string, [string, string]> = {
  dancing: ['pref:hobby:dancing', 'like|dancing'],
  pasta: ['pref:food:pasta', 'like|pasta'],
  sushi: ['pref:food:sushi', 'dislike|sushi'],
  nurse: ['fact:occupation', 'nurse'],
  busan: ['fact:current_city', 'busan'],
  group: ['event:relationship:2026_05:book_club', 'went to a book club'],
  adoption: ['event:family:2026_06:research_piano_teachers', 'plans to research piano teachers'],
};

describe('terms (issue 15: lowercase, stop words out, stemmed)', () => {
  it('keeps the content words of a message, stemmed, once each', () => {
    expect(terms("I've been Dancing and danced at the dance hall!")).toEqual(['danc', 'hall']);
  });

  it('drops stop words, their inflections, and single letters', () => {
    expect(terms("Do you remember what I said? I was going to tell you something, y'know")).toEqual(['yknow']);
    expect(terms('I had a great time yesterday')).toEqual([]);
  });

  it('pairs Hangul syllables, so a word with its particle still shares terms with the bare word', () => {
    expect(terms('고양이를')).toEqual(['고양', '양이', '이를']);
    expect(terms('고양이')).toEqual(['고양', '양이']);
    expect(terms('김치')).toEqual(['김치']);
  });

  it('reads a memory by its value and its key', () => {
    expect(terms(memoryText('pref:hobby:dancing', 'like|dancing'))).toEqual(['hobbi', 'danc']);
    expect(terms(memoryText('fact:occupation', 'nurse'))).toEqual(['occup', 'job', 'work', 'nurs']);
    expect(terms(memoryText('event:work:2026_05:got_promoted_to_lead', 'got a promotion'))).toEqual(['work', 'promot', 'lead']);
  });
});

describe('relevance (issue 15: lexical overlap weighted by rarity)', () => {
  it('does not find "I remember you like dancing" in "I had pasta for lunch"', () => {
    // when
    const r = relevanceTo('I had pasta for lunch', MEMORIES);

    // then
    expect(r.dancing).toBe(0);
    expect(r.pasta).toBeGreaterThan(0.5);
    expect(Object.entries(r).filter(([, v]) => v > 0).map(([k]) => k)).toEqual(['pasta']);
  });

  it('finds the memory a message is about, and only it', () => {
    expect(relevanceTo('went dancing with friends last night', MEMORIES)).toMatchObject({ dancing: expect.any(Number), pasta: 0, nurse: 0 });
    expect(relevanceTo('went dancing with friends last night', MEMORIES).dancing).toBeGreaterThan(0.4);
    expect(relevanceTo('the book club meeting was so good', MEMORIES).group).toBeGreaterThan(0.6);
    expect(relevanceTo('any news on the piano teachers?', MEMORIES).adoption).toBeGreaterThan(0.6);
  });

  it('is 0 when only stop words are shared, however many', () => {
    expect(relevanceTo('I went to a thing and it was a lot', MEMORIES).group).toBe(0);
    // "like" is how a preference is stored, not what it is about.
    expect(relevanceTo('I really like my new shoes', MEMORIES)).toEqual(Object.fromEntries(Object.keys(MEMORIES).map((k) => [k, 0])));
  });

  it('weighs rare shared words above common ones', () => {
    // given: many food preferences, one hobby
    const memories = { ...MEMORIES, ramen: ['pref:food:ramen', 'like|ramen'] as [string, string], tacos: ['pref:food:tacos', 'like|tacos'] as [string, string] };

    // when: "food" is shared with every food memory, "pasta" with one
    const generic = relevanceTo('so hungry, thinking about food', memories);
    const specific = relevanceTo('craving pasta', memories);
    const only = relevanceTo('pasta', memories);

    // then
    expect(generic.pasta).toBeGreaterThan(0);
    expect(generic.pasta).toBeLessThan(0.4);
    expect(specific.pasta).toBeGreaterThan(0.6);
    expect(only.pasta).toBe(1);
  });

  it('stays within [0, 1]', () => {
    const stats = statsOf([['a1'], ['a1', 'b2']]);
    expect(relevance(['a1', 'a1', 'b2'], ['a1', 'b2'], stats)).toBe(1);
    expect(relevance([], ['a1'], stats)).toBe(0);
    expect(relevance(['a1'], [], stats)).toBe(0);
  });

  it('takes the cosine when it is higher, clamped to [0, 1]', () => {
    expect(withCosine(0.3, undefined)).toBe(0.3);
    expect(withCosine(0.3, 0.8)).toBe(0.8);
    expect(withCosine(0.3, 0.1)).toBe(0.3);
    expect(withCosine(0, -0.2)).toBe(0);
    expect(withCosine(0, 1.0000001)).toBe(1);
  });

  it('gives idf > 0, highest for a term no memory holds', () => {
    expect(idf(0, 10)).toBeGreaterThan(idf(1, 10));
    expect(idf(10, 10)).toBeGreaterThan(0);
  });
});

describe('fuseRankings (reciprocal-rank fusion)', () => {
  it('adds 1 / (k + rank) over the rankings', () => {
    // when
    const fused = fuseRankings([['a', 'b', 'c'], ['c', 'a']], 60);

    // then
    expect(fused.get('a')).toBeCloseTo(1 / 61 + 1 / 62, 12);
    expect(fused.get('b')).toBeCloseTo(1 / 62, 12);
    expect(fused.get('c')).toBeCloseTo(1 / 63 + 1 / 61, 12);
    expect([...fused.entries()].sort((x, y) => y[1] - x[1]).map(([id]) => id)).toEqual(['a', 'c', 'b']);
  });

  it('is the one ranking\'s order when only one is given', () => {
    const fused = fuseRankings([['x', 'y'], []], 60);
    expect([...fused.keys()]).toEqual(['x', 'y']);
    expect(fused.get('x')).toBeGreaterThan(fused.get('y')!);
  });
});

describe('byRank (score, then recency and confidence as tie-breakers)', () => {
  const m = (memoryId: string, score: number, lastConfirmedAt: number, confidence: number) => ({ memoryId, score, lastConfirmedAt, confidence });

  it('orders by score, then more recently confirmed, then more confident, then id', () => {
    const ranked = [m('d', 0.5, 1, 0.6), m('c', 0.5, 2, 0.6), m('b', 0.5, 2, 0.75), m('a', 0.9, 0, 0.6), m('e', 0.5, 2, 0.75)].sort(byRank);
    expect(ranked.map((x) => x.memoryId)).toEqual(['a', 'b', 'e', 'c', 'd']);
  });

  it('takes scores equal to the last bits as a tie', () => {
    const ranked = [m('old', 0.1 + 0.2, 1, 0.6), m('new', 0.3, 2, 0.6)].sort(byRank);
    expect(ranked.map((x) => x.memoryId)).toEqual(['new', 'old']);
  });
});
