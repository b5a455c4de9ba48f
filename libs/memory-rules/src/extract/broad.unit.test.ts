import { parseKey } from '../keys.js';
import { extractSentence, parseSentences, skipReason } from './broad.js';
import { extractHeuristic } from './heuristic.js';

// Monday 8 May 2023, 13:56 UTC.
const AT = new Date('2023-05-08T13:56:00Z');

const one = (text: string) => extractSentence(parseSentences(text)[0]!, AT);
const all = (text: string) => extractHeuristic(text, AT).map((c) => `${c.key}=${c.value}`);

describe('broad extraction: what real talk tells', () => {
  it('keeps an experience as a dated event in the user’s words, filed under the stated month', () => {
    const c = one('I went to a book club yesterday and it was so inspiring.');
    expect(c).toEqual({
      type: 'RELATIONSHIP_EVENT',
      key: 'event:relationship:2023_05:book_club_inspiring',
      value: 'i went to a book club and it was so inspiring.',
      extractor: 'heuristic',
      occurred: { on: '2023-05-07', precision: 'day', text: 'yesterday' },
    });
    // Said in May about March: the key month is March's.
    expect(one('I ran a half marathon for the children’s hospital in March.')?.key).toMatch(/^event:health:2023_03:/);
  });

  it('keeps plans, people, possessions and subject-less updates', () => {
    expect(one("I'm gonna take my kids to the aquarium next month.")).toMatchObject({ key: expect.stringMatching(/^event:family:2023_06:/), occurred: { precision: 'month' } });
    expect(one('Researching piano teachers for my daughter.')?.key).toMatch(/^event:family:2023_05:research_piano_teacher/);
    expect(one('My grandpa gave me this pocket watch when I was ten.')?.key).toMatch(/^event:family:/);
    expect(one('I just started a new job at a law firm downtown.')?.key).toMatch(/^event:work:/);
  });

  it('maps coping, work stress and long-run moods to §12.3.1 D patterns', () => {
    expect(one('Painting helps me relax after a long day.')).toMatchObject({ type: 'EMOTIONAL_PATTERN', key: 'emotion:coping_preference' });
    expect(one('My job always stresses me out on Mondays.')).toMatchObject({ type: 'EMOTIONAL_PATTERN', key: 'emotion:stress_trigger_work' });
    expect(one("I've been feeling really down lately.")).toMatchObject({ type: 'EMOTIONAL_PATTERN', key: 'emotion:baseline_mood' });
  });

  it.each([
    ['How was your weekend?', 'question'],
    ['Thanks so much, Mel!', 'phatic'],
    ["I'm so happy for you!", 'phatic'],
    ['That bake sale sounds great!', 'not_first_person'],
    ['Getting a puppy is so exciting!', 'not_first_person'],
    ["I didn't go to the party after all.", 'negated'],
    ['I think your painting of the lake is beautiful.', 'about_them'],
    ['I am really lucky.', 'no_content'],
  ])('leaves out %s (%s)', (text, reason) => {
    expect(skipReason(parseSentences(text)[0]!)).toBe(reason);
    expect(one(text)).toBeNull();
  });

  it('gives every key in a §12.3.1 format, slugs within 48 characters', () => {
    const text = 'I finally finished the enormous handmade quilt for my grandmother’s ninetieth birthday celebration in the countryside last weekend!';
    const keys = extractHeuristic(text, AT).map((c) => c.key);
    expect(keys.length).toBe(1);
    for (const k of keys) expect(parseKey(k)).not.toBeNull();
  });

  it('leaves what the anchored rules key to them, and adds the rest of the message', () => {
    expect(all('I love sushi. I went to a pottery workshop with my sister yesterday!')).toEqual([
      'pref:food:sushi=like|sushi',
      'event:family:2023_05:pottery_workshop_sister=i went to a pottery workshop with my sister!',
    ]);
    // A rule event takes its month from the stated time as well.
    expect(all('I went to Japan last month')).toEqual(['event:travel:2023_04:japan=i went to japan last month']);
  });

  it('keeps at most three broad memories from one message, the fullest first', () => {
    const text = 'I went hiking with my dad on Sunday. I adopted a puppy named Oscar. I signed up for a pottery class. I repainted my bedroom blue.';
    expect(extractHeuristic(text, AT)).toHaveLength(3);
  });
});

describe('a sentence that names no time', () => {
  it('is dated by the message’s previous past-tense sentence', () => {
    const out = extractHeuristic('I went to my cousin’s wedding last week. I gave a toast and danced with the bride all night.', AT);
    expect(out.map((c) => c.occurred?.on)).toEqual(['2023-05-01', '2023-05-01']);
    // A plan is not dated by what happened.
    expect(extractHeuristic('We went camping last week. I am going to adopt a puppy.', AT).find((c) => c.value.includes('puppy'))?.occurred).toBeUndefined();
  });
});

describe('any message', () => {
  // Pieces of real talk and of nasty input, joined at random (a fixed seed): no
  // message may throw (one bad input must never wedge a user's write-back), and
  // every key is one of §12.3.1's formats.
  const PIECES = ['I ', 'went ', 'yesterday ', 'last may ', 'my ', 'sister ', '?', '!', '.', '...', '—', "'", '"', '(', ')', '😀', '저는 ', '서울에 ', '살아요', '좋아해요', '\u0000', '\u200b', '\ud800', 'in 2020 ', '31 February ', 'next ', 'ago ', 'two ', 'weeks ', 'Dr. ', '\n', ',', 'gonna ', "don't ", 'love ', 'sushi ', 'at 25:99 ', '99/99/9999 ', 'Researching ', 'Winning '];

  it('gives only valid keys and never throws', () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let i = 0; i < 400; i++) {
      let text = '';
      for (let j = 0, n = 1 + Math.floor(rnd() * 30); j < n; j++) text += PIECES[Math.floor(rnd() * PIECES.length)];
      for (const c of extractHeuristic(text, AT)) {
        expect([text, parseKey(c.key)]).not.toEqual([text, null]);
        expect(Array.from(c.value).length).toBeLessThanOrEqual(160);
      }
    }
  });
});
