import { MEMORY_KEYS } from './config.js';
import { canonicalText, emotionKey, eventKey, factKey, parseKey, preferenceKey, preferenceValue, slugify, stanceOf } from './keys.js';
import type { StatedTime } from './types.js';

const AT = new Date('2026-05-10T12:00:00Z');

describe('slugify (§12.3.1 slug rules)', () => {
  it('applies NFKC, so full-width letters are plain ones', () => {
    // given full-width Latin letters
    // when slugged
    // then they are the ASCII word
    expect(slugify('ｓｕｓｈｉ')).toBe('sushi');
    expect(slugify('ＩＣＥ　ＣＲＥＡＭ')).toBe('ice_cream');
  });

  it('trims, lowercases and turns each run of whitespace into one underscore', () => {
    expect(slugify('  Ice   Cream \t')).toBe('ice_cream');
    expect(slugify('Hip Hop')).toBe('hip_hop');
  });

  it('removes punctuation but keeps underscores', () => {
    expect(slugify('mac & cheese!')).toBe('mac_cheese');
    expect(slugify("rock 'n' roll")).toBe('rock_n_roll');
    expect(slugify('sci-fi')).toBe('scifi');
    expect(slugify('snake_case_item')).toBe('snake_case_item');
    expect(slugify('a__b')).toBe('a_b');
  });

  it('keeps non-Latin letters without romanizing them', () => {
    expect(slugify('김치 찌개')).toBe('김치_찌개');
    expect(slugify('ラーメン')).toBe('ラーメン');
    expect(slugify('Crème brûlée')).toBe('crème_brûlée');
  });

  it('removes emoji and symbols, and yields "" when nothing else is left', () => {
    expect(slugify('pizza 🍕')).toBe('pizza');
    expect(slugify('🍕')).toBe('');
    expect(slugify('!!!')).toBe('');
  });

  it('truncates input longer than 48 characters to exactly 48, deterministically', () => {
    // given 49 and 60 Latin letters
    const long = 'abcdefghij'.repeat(6);
    // when slugged
    // then the first 48 remain, the same each time
    expect(slugify('x'.repeat(49))).toHaveLength(MEMORY_KEYS.slugMaxChars);
    expect(slugify(long)).toBe(long.slice(0, 48));
    expect(slugify(long)).toBe(slugify(long));
  });

  it('truncates by code points: 60 Hangul syllables become 48, an astral letter is never split', () => {
    const hangul = '가나다라마바사아자차'.repeat(6);
    const slug = slugify(hangul);
    expect(Array.from(slug)).toHaveLength(48);
    expect(slug).toBe(Array.from(hangul).slice(0, 48).join(''));

    const astral = '𠀀'.repeat(60);
    expect(Array.from(slugify(astral))).toEqual(Array.from('𠀀'.repeat(48)));
  });

  it('never ends a truncated slug on an underscore', () => {
    // given words whose 48th character is a space
    const slug = slugify('abc '.repeat(20));
    // then the dangling underscore goes
    expect(slug.endsWith('_')).toBe(false);
    expect(slug.length).toBeLessThanOrEqual(48);
  });
});

describe('key builders', () => {
  it('builds every FACT key (§12.3.1 A)', () => {
    for (const field of MEMORY_KEYS.factFields) {
      expect(factKey(field)).toBe(`fact:${field}`);
      expect(parseKey(factKey(field))).toEqual({ type: 'FACT', field });
    }
  });

  it('builds pref:<category>:<item_slug> keys, null when the item has no slug (§12.3.1 B)', () => {
    expect(preferenceKey('food', 'Sushi')).toBe('pref:food:sushi');
    expect(preferenceKey('food', '김치 찌개')).toBe('pref:food:김치_찌개');
    expect(preferenceKey('music', 'K-Pop')).toBe('pref:music:kpop');
    expect(preferenceKey('food', 'pizza 🍕')).toBe('pref:food:pizza');
    expect(preferenceKey('food', '🍕')).toBeNull();
    for (const category of MEMORY_KEYS.preferenceCategories) {
      expect(parseKey(preferenceKey(category, 'x')!)).toEqual({ type: 'PREFERENCE', category, item: 'x' });
    }
  });

  it('builds event:<domain>:<yyyy_mm>:<event_slug> keys by the UTC month of `at` (§12.3.1 C)', () => {
    // given a turn on 10 May 2026 (UTC)
    // then the bucket is 2026_05
    expect(eventKey('travel', AT, 'Japan')).toBe('event:travel:2026_05:japan');
    expect(eventKey('work', new Date('2026-01-03T00:00:00Z'), 'new job')).toBe('event:work:2026_01:new_job');
    // a local evening that is already the next month in UTC
    expect(eventKey('school', new Date('2026-04-30T23:30:00-05:00'), 'exam')).toBe('event:school:2026_05:exam');
    expect(eventKey('health', AT, '🤒')).toBeNull();
    for (const domain of MEMORY_KEYS.eventDomains) {
      expect(parseKey(eventKey(domain, AT, 'x')!)).toEqual({ type: 'RELATIONSHIP_EVENT', domain, month: '2026_05', slug: 'x' });
    }
  });

  it.each([
    [{ on: '2026-04-09', precision: 'day', text: 'yesterday' }, '2026_04'],
    [{ on: '2025-05-01', precision: 'month', text: 'last May' }, '2025_05'],
    [{ on: '2026-03-30', precision: 'week', text: 'last week' }, '2026_03'],
    [{ on: '2024-01-01', precision: 'year', text: 'two years ago' }, '2024_01'],
    [{ on: '2026-03-31', precision: 'day', text: 'on March 31' }, '2026_03'],
  ] as const)('files an event under the month the user stated (%j), not the turn\'s', (stated: StatedTime, month) => {
    // given a turn on 10 April 2026 that states when it happened
    const turnAt = new Date('2026-04-10T09:00:00Z');

    // when the extractor passes the stated day as the key's date
    const key = eventKey('family', new Date(stated.on), 'visited grandma');

    // then the bucket is the stated month, the turn's only without one
    expect(key).toBe(`event:family:${month}:visited_grandma`);
    expect(parseKey(key!)).toMatchObject({ month });
    expect(eventKey('family', turnAt, 'visited grandma')).toBe('event:family:2026_04:visited_grandma');
  });

  it('builds every EMOTIONAL_PATTERN key (§12.3.1 D)', () => {
    for (const pattern of MEMORY_KEYS.emotionPatterns) {
      expect(emotionKey(pattern)).toBe(`emotion:${pattern}`);
      expect(parseKey(emotionKey(pattern))).toEqual({ type: 'EMOTIONAL_PATTERN', pattern });
    }
  });
});

describe('parseKey', () => {
  it('accepts each of the four formats', () => {
    expect(parseKey('fact:current_city')).toEqual({ type: 'FACT', field: 'current_city' });
    expect(parseKey('pref:food:sushi')).toEqual({ type: 'PREFERENCE', category: 'food', item: 'sushi' });
    expect(parseKey('pref:food:김치_찌개')).toEqual({ type: 'PREFERENCE', category: 'food', item: '김치_찌개' });
    expect(parseKey('event:travel:2026_05:japan')).toEqual({ type: 'RELATIONSHIP_EVENT', domain: 'travel', month: '2026_05', slug: 'japan' });
    expect(parseKey('emotion:social_energy')).toEqual({ type: 'EMOTIONAL_PATTERN', pattern: 'social_energy' });
  });

  it.each([
    ['an unknown fact field', 'fact:hometown'],
    ['a fact without a field', 'fact'],
    ['a fact with an extra segment', 'fact:home_city:seoul'],
    ['an unknown preference category', 'pref:color:blue'],
    ['an uppercase item', 'pref:food:Sushi'],
    ['an item with spaces', 'pref:food:ice cream'],
    ['an item with punctuation', 'pref:food:mac&cheese'],
    ['an empty item', 'pref:food:'],
    ['a preference with an extra segment', 'pref:food:sushi:extra'],
    ['a preference without an item', 'pref:food'],
    ['month 13', 'event:travel:2026_13:japan'],
    ['month 00', 'event:travel:2026_00:japan'],
    ['a two-digit year', 'event:travel:26_05:japan'],
    ['a hyphenated month', 'event:travel:2026-05:japan'],
    ['an unknown domain', 'event:vacation:2026_05:japan'],
    ['an event without a slug', 'event:travel:2026_05'],
    ['an event with an extra segment', 'event:travel:2026_05:japan:tokyo'],
    ['an unknown emotion pattern', 'emotion:happiness'],
    ['an emotion with an extra segment', 'emotion:baseline_mood:happy'],
    ['an unknown prefix', 'memory:sushi'],
    ['the empty string', ''],
  ])('rejects %s (%s)', (_what, key) => {
    expect(parseKey(key)).toBeNull();
  });

  it('names the type a key implies', () => {
    expect(parseKey('fact:school')?.type).toBe('FACT');
    expect(parseKey('pref:sport:tennis')?.type).toBe('PREFERENCE');
    expect(parseKey('event:family:2026_05:baby')?.type).toBe('RELATIONSHIP_EVENT');
    expect(parseKey('emotion:coping_preference')?.type).toBe('EMOTIONAL_PATTERN');
  });
});

describe('values', () => {
  it('canonicalizes text: NFKC, whitespace collapsed, trimmed, lowercased', () => {
    expect(canonicalText('  Ｓｅｏｕｌ \n City ')).toBe('seoul city');
    expect(canonicalText('BUSAN')).toBe('busan');
  });

  it('encodes a preference as like|<value> or dislike|<value> (§12.3.2)', () => {
    expect(preferenceValue('like', ' Sushi ')).toBe('like|sushi');
    expect(preferenceValue('dislike', 'Hip  Hop')).toBe('dislike|hip hop');
  });

  it('reads the stance back, null for anything else', () => {
    expect(stanceOf('like|sushi')).toBe('like');
    expect(stanceOf('dislike|sushi')).toBe('dislike');
    expect(stanceOf(preferenceValue('dislike', 'x'))).toBe('dislike');
    expect(stanceOf('sushi')).toBeNull();
    expect(stanceOf('likes|sushi')).toBeNull();
    expect(stanceOf('LIKE|sushi')).toBeNull();
    expect(stanceOf('')).toBeNull();
  });
});
