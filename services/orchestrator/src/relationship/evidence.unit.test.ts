import { containsAny, normalizeUserText } from '@hearth/text';
import { analyzeEmotion } from './emotion.js';
import { countPreferences, detectEvidence, isDisengaged, isPastReference } from './evidence.js';
import { PREFERENCE_TRIGGERS } from './lexicon.js';

const norm = (raw: string) => normalizeUserText(raw).normNoPunct;
const NEUTRAL = { valence: 0, tags: [] };

describe('countPreferences (turn-pipeline §11.2 preference share)', () => {
  it.each([
    ['I like cats', 1],
    ['i like cats and i like cats', 1],
    ['i like cats and i like dogs', 2],
    ['I love sushi and I hate rain', 2],
    ['I like cats too, and I like cats a lot', 1],
    ['I love sushi so much and I love sushi', 1],
    ['my favorite food is pizza and my favourite food is pizza', 1],
    ['My favorite colour is blue, my favorite food is ramen', 2],
    ['i like cats, i love cats', 2],
    ["I enjoy hiking, I'm into jazz, I prefer tea and I can't stand noise", 4],
    ["im into jazz and i'm into jazz", 1],
    ["I don't like horror movies", 1],
    ['yes, i like', 1],
    ['I like it. I like it!', 1],
    ['I love😍 sushi', 1],
    ['고양이를 좋아해', 1],
    ['고양이를 좋아해요. 고양이는 좋아합니다', 1],
    ['고양이를 제일 좋아해 그리고 강아지도 좋아해요', 2],
    ['비 오는 날은 싫어해', 1],
    ['what do you like?', 0],
    ['i liked it', 0],
    ['i really like it', 0],
    ['', 0],
  ])('given %p, then %i distinct preference(s)', (raw, expected) => {
    expect(countPreferences(norm(raw))).toBe(expected);
  });

  it.each([
    ['i like cats'],
    ['so yeah i like'],
    ['my favourite'],
    ['i liked it'],
    ['고양이 제일 좋아'],
    ['you like cats'],
    ["i can't stand"],
    ['hello there'],
  ])('given %p, then the count is positive exactly when a trigger phrase matches', (raw) => {
    const variants = PREFERENCE_TRIGGERS.flatMap((t) => t.variants);

    expect(countPreferences(norm(raw)) > 0).toBe(containsAny(norm(raw), variants).length > 0);
  });
});

describe('isPastReference (§11.2)', () => {
  it.each([
    ['Do you remember my cat?', true],
    ['like we said, it is fine', true],
    ['last time was fun', true],
    ['you said that yesterday', true],
    ['as I told you, my exam is Friday', true],
    ['기억나?', true],
    ['지난번에 말한 거', true],
    ['저번에 얘기한 영화', true],
    ["Please don't remember that.", false],
    ['I do not remember', false],
    ['기억하지 마세요', false],
    ["i don't remember what you said", true],
    ['what a nice day', false],
    ['my remembrance', false],
  ])('given %p, then %p', (raw, expected) => {
    expect(isPastReference(norm(raw))).toBe(expected);
  });
});

describe('isDisengaged (§11.2)', () => {
  it.each([
    ['ok', true],
    ['OK!!!', true],
    ['k', true],
    ['idk', true],
    ['lol', true],
    ['sure', true],
    ['', true],
    ['...', true],
    ['i see now', true],
    ['응 알겠어', true],
    ['that sounds really fun', false],
    ['ok ok ok ok', false],
  ])('given %p, then %p', (raw, expected) => {
    expect(isDisengaged(norm(raw))).toBe(expected);
  });
});

describe('detectEvidence (§11.2)', () => {
  const TEN_WORDS = 'I went hiking with my sister and it was great';
  const NINE_WORDS = 'I went hiking with my sister and it rained';

  it('given a question before and a 10-word reply, then it is a meaningful response', () => {
    const evidence = detectEvidence({ normNoPunct: norm(TEN_WORDS), previousAssistantAskedQuestion: true, emotion: NEUTRAL });

    expect(evidence).toEqual({
      preferences: 0,
      meaningfulResponse: true,
      emotionalDisclosure: false,
      pastReference: false,
      disengaged: false,
      tokens: 10,
    });
  });

  it('given a 9-word reply, or no question before, then it is not a meaningful response', () => {
    expect(detectEvidence({ normNoPunct: norm(NINE_WORDS), previousAssistantAskedQuestion: true, emotion: NEUTRAL }).meaningfulResponse).toBe(false);
    expect(detectEvidence({ normNoPunct: norm(TEN_WORDS), previousAssistantAskedQuestion: false, emotion: NEUTRAL }).meaningfulResponse).toBe(false);
  });

  it.each([
    [{ valence: -0.6, tags: ['negative'] }, true],
    [{ valence: 0.6, tags: ['positive'] }, true],
    [{ valence: -0.59, tags: ['negative'] }, false],
    [{ valence: 0.3, tags: ['strong_positive'] }, true],
    [{ valence: 0, tags: ['strong_negative'] }, true],
  ])('given the emotion %p, then emotional disclosure is %p', (emotion, expected) => {
    expect(detectEvidence({ normNoPunct: 'hello there friend', previousAssistantAskedQuestion: false, emotion }).emotionalDisclosure).toBe(expected);
  });

  it('given the analyzer on "really really sad" and on "really sad", then only the first is a disclosure', () => {
    const disclosure = (raw: string) =>
      detectEvidence({ normNoPunct: norm(raw), previousAssistantAskedQuestion: false, emotion: analyzeEmotion(norm(raw)) }).emotionalDisclosure;

    expect(disclosure('I am really really sad')).toBe(true);
    expect(disclosure('I am really sad')).toBe(false);
  });

  it('given extractor preferences, then the larger of the two counts wins', () => {
    const base = { normNoPunct: norm('I love sushi'), previousAssistantAskedQuestion: false, emotion: NEUTRAL };

    expect(detectEvidence({ ...base, extractorPreferences: 3 }).preferences).toBe(3);
    expect(detectEvidence({ ...base, extractorPreferences: 0 }).preferences).toBe(1);
    expect(detectEvidence(base).preferences).toBe(1);
  });

  it('given a past reference and a short reply, then both are detected', () => {
    const evidence = detectEvidence({ normNoPunct: norm('remember?'), previousAssistantAskedQuestion: true, emotion: NEUTRAL });

    expect(evidence).toMatchObject({ pastReference: true, disengaged: true, meaningfulResponse: false, tokens: 1 });
  });
});
