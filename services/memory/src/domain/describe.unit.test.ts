import { embeddingText, snippet, topicsOfMemory } from './describe.js';

describe('embeddingText', () => {
  it('reads the key as words before the value', () => {
    expect(embeddingText('fact:current_city', 'busan')).toBe('current city lives in: busan');
    expect(embeddingText('pref:food:sushi', 'dislike|sushi')).toBe('dislikes food: sushi');
    expect(embeddingText('pref:movie_genre:horror', 'like|horror')).toBe('likes movie genre: horror');
    expect(embeddingText('event:travel:2026_11:jeju', 'went to jeju')).toBe('travel event: went to jeju');
    expect(embeddingText('emotion:social_energy', 'introvert')).toBe('social energy: introvert');
  });
});

describe('topicsOfMemory', () => {
  it('gives a key family its topic, so §14.6 and suppressed topics reach it', () => {
    expect(topicsOfMemory('event:health:2026_11:surgery', 'had surgery')).toContain('MEDICAL_HEALTH');
    expect(topicsOfMemory('event:family:2026_11:new_baby', 'had a baby')).toContain('FAMILY');
    expect(topicsOfMemory('fact:occupation', 'nurse')).toContain('WORK_SCHOOL');
    expect(topicsOfMemory('fact:current_city', 'busan')).toEqual([]);
  });
});

describe('snippet', () => {
  it('keeps short values and cuts long ones at a word', () => {
    expect(snippet('busan')).toBe('busan');
    const cut = snippet('word '.repeat(60));
    expect(Array.from(cut).length).toBeLessThanOrEqual(161);
    expect(cut.endsWith('…')).toBe(true);
  });
});
