import { HEURISTIC_TRIGGERS } from '@hearth/text';

/**
 * The word lists of Stage G (turn-pipeline §11.2): the emotion analyzer's lexicon,
 * the preference triggers and the past-reference phrases. Every entry is already
 * in `normNoPunct` form (lowercase ASCII, `'` as the only punctuation), so it is
 * matched as a whole word / phrase without being normalized again; a Hangul entry
 * matches as a word prefix ("우울해" hits "우울해요"), as `@hearth/text` does.
 * A test checks both properties.
 */

/** §11.2 "strong negative": any one of these is an emotional disclosure. */
export const STRONG_NEGATIVE: readonly string[] = Object.freeze([
  'devastated',
  'heartbroken',
  'depressed',
  'miserable',
  'hopeless',
  'terrified',
  'furious',
  "can't stop crying",
  'cant stop crying',
  'falling apart',
  'hate my life',
  'worst day ever',
  '너무 힘들',
  '우울해',
  '우울하',
  // "것 같" would end on one syllable, which only matches alone or plus a
  // particle: the usual endings are listed instead.
  '죽을 것 같아',
  '죽을 것 같다',
  '죽을것같',
  '절망',
  '비참',
]);

/** Moderate negative: below the disclosure line unless intensified twice. */
export const MODERATE_NEGATIVE: readonly string[] = Object.freeze([
  'sad',
  'unhappy',
  'tired',
  'exhausted',
  'stressed',
  'worried',
  'anxious',
  'upset',
  'lonely',
  'hurt',
  'scared',
  'afraid',
  'angry',
  'frustrated',
  'annoyed',
  'nervous',
  'overwhelmed',
  'disappointed',
  '슬퍼',
  '슬프',
  '피곤',
  '힘들',
  '걱정',
  '불안',
  '외로',
  '속상',
  '짜증',
  '스트레스',
  '무서',
]);

/** §11.2 "strong positive". */
export const STRONG_POSITIVE: readonly string[] = Object.freeze([
  'thrilled',
  'ecstatic',
  'overjoyed',
  'so happy',
  'best day ever',
  'over the moon',
  'on cloud nine',
  'never been happier',
  '너무 행복',
  '너무 기뻐',
  '너무 기쁘',
  '최고의 하루',
  '날아갈 것 같아',
]);

/** Moderate positive. */
export const MODERATE_POSITIVE: readonly string[] = Object.freeze([
  'happy',
  'glad',
  'excited',
  'proud',
  'grateful',
  'thankful',
  'relieved',
  'delighted',
  'hopeful',
  '기뻐',
  '기쁘',
  '행복',
  '신나',
  '설레',
  '뿌듯',
  '다행',
]);

/** Words that raise a term's intensity when they stand directly before it ("really really sad"). */
export const INTENSIFIERS: readonly string[] = Object.freeze([
  'so',
  'really',
  'very',
  'extremely',
  'super',
  'incredibly',
  '너무',
  '너무너무',
  '정말',
  '정말로',
  '진짜',
  '진짜로',
  '완전',
  '엄청',
]);

/**
 * Words that negate a term when they stand directly before it, or before the run
 * of intensifiers in front of it ("not happy", "not really happy", "안 슬퍼").
 * Korean's after-the-verb negation ("행복하지 않아") is not recognised in v0.1.
 */
export const NEGATORS: readonly string[] = Object.freeze([
  'not',
  'never',
  "isn't",
  'isnt',
  "wasn't",
  'wasnt',
  "aren't",
  'arent',
  "weren't",
  'werent',
  "don't",
  'dont',
  "didn't",
  'didnt',
  "ain't",
  'aint',
  '안',
  '못',
]);

/**
 * One preference trigger: its spellings, the first canonical, and where its
 * object stands. English says the object after the verb ("i like cats"), Korean
 * before it ("고양이를 좋아해").
 */
export interface PreferenceTrigger {
  readonly variants: readonly string[];
  readonly object: 'after' | 'before';
}

const english = (...variants: string[]): PreferenceTrigger => Object.freeze({ variants: Object.freeze(variants), object: 'after' });
const korean = (...variants: string[]): PreferenceTrigger => Object.freeze({ variants: Object.freeze(variants), object: 'before' });

/**
 * §11.2 "preference share": the §5 preference triggers (taken from `@hearth/text`,
 * so the two never drift apart; "my favorite" and "my favourite" are one trigger)
 * and the further spellings of a stated like or dislike.
 */
export const PREFERENCE_TRIGGERS: readonly PreferenceTrigger[] = Object.freeze([
  ...HEURISTIC_TRIGGERS.preference.filter((t) => t !== 'my favourite').map((t) => (t === 'my favorite' ? english(t, 'my favourite') : english(t))),
  english('i enjoy'),
  english("i'm into", 'im into'),
  english('i prefer'),
  english("i can't stand", 'i cant stand'),
  english("i don't like", 'i dont like'),
  korean('제일 좋아'),
  korean('좋아하', '좋아해', '좋아합'),
  korean('싫어하', '싫어해', '싫어합'),
]);

/**
 * Words that end a preference's object: a conjunction, a new clause's subject, or
 * a filler after the object ("i like cats too", "i love sushi so much").
 */
export const OBJECT_BOUNDARIES: ReadonlySet<string> = new Set([
  'and',
  'but',
  'or',
  'so',
  'because',
  'cause',
  'cuz',
  'though',
  'although',
  'while',
  'when',
  'if',
  'then',
  'also',
  'too',
  'i',
  "i'm",
  'im',
  "i've",
  'ive',
  "i'd",
  "i'll",
]);

/** Two-word fillers that end a preference's object ("i like cats a lot"). */
export const OBJECT_END_PHRASES: readonly (readonly [string, string])[] = Object.freeze([
  Object.freeze(['a', 'lot'] as const),
  Object.freeze(['very', 'much'] as const),
]);

/** How many words after an English trigger make its object. */
export const OBJECT_MAX_WORDS = 3;

/** Korean particles stripped from the object before a trigger, so "고양이를" and "고양이는" are one object. */
export const KOREAN_OBJECT_PARTICLES: readonly string[] = Object.freeze(['을', '를', '은', '는', '도', '만']);

/** §11.2 "past reference": the user points back at an earlier conversation. */
export const PAST_REFERENCE: readonly string[] = Object.freeze([
  'remember',
  'like we said',
  'like i said',
  'last time',
  'you said',
  'you told me',
  'as i told you',
  'i told you',
  'we talked about',
  'as we discussed',
  'you mentioned',
  'i mentioned',
  '기억',
  '지난번',
  '저번',
  '말했잖아',
  '얘기했잖아',
]);

/**
 * Phrases in which "remember" / "기억" is not a reference to the past but the
 * §5 correction ("don't remember that") or a lapse ("i don't remember").
 */
export const NOT_PAST_REFERENCE: readonly string[] = Object.freeze([
  "don't remember",
  'dont remember',
  'do not remember',
  "didn't remember",
  'didnt remember',
  'never remember',
  '기억하지 마',
  '기억하지마',
  '기억 안 나',
  '기억 안나',
]);
