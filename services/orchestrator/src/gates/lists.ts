import { PROTECTED_GROUPS } from '@hearth/text';

/**
 * The word and phrase lists of the §10 gates, English and Korean, in
 * `norm_no_punct` form (ASCII lowercase, apostrophes kept; turn-pipeline §2.8).
 *
 * Matching: `phrases` go through `containsAny` of @hearth/text (whole words; a
 * Hangul last token of two or more syllables matches as a word prefix, so
 * '자랑스러워' also finds '자랑스러워요'). `exact` entries must equal whole
 * words: for Korean forms whose prefix would also hit unrelated words
 * ('사랑해' would hit '사랑해서' "because ... love", '자위' would hit '자위대').
 *
 * The safety and intimacy lists are deliberately narrow: they name what a reply
 * must never say, not every word near it, so a crisis-support reply ("call a
 * crisis line", "are you thinking about suicide?") and everyday phrasing ("you cut
 * your hair", "don't kill yourself over this exam") pass.
 */
export interface TermList {
  readonly phrases: readonly string[];
  readonly exact?: readonly string[];
}

/** The punctuation quirks of PersonaTemplate.speech_style (templates.json). */
export const QUIRKS = ['~', '...', '!!', '!', '()', 'lowercase'] as const;
export type Quirk = (typeof QUIRKS)[number];

// ---------------------------------------------------------------- lexicon (§10 item 2)

/** Casual slang: allowed for lexicon_bias slang and internet_shorthand. */
export const SLANG: TermList = {
  phrases: [
    'gonna',
    'wanna',
    'gotta',
    'kinda',
    'sorta',
    'dunno',
    'lemme',
    'gimme',
    'gotcha',
    'tryna',
    'finna',
    "ain't",
    'aint',
    "y'all",
    'yall',
    'dude',
    'bro',
    'bruh',
    'fam',
    'bestie',
    'lowkey',
    'highkey',
    'vibe',
    'vibes',
    'vibing',
    'yeah nah',
    'nah',
    'no cap',
    'deadass',
    'hella',
    'legit',
    'sus',
    'cuz',
    '존맛',
    '존잼',
    '꿀잼',
    '노잼',
    '개꿀',
    '킹받',
    '레알',
    '쩐다',
    '쩔어',
  ],
};

/** Internet shorthand: allowed only for lexicon_bias internet_shorthand. */
export const INTERNET_SHORTHAND: TermList = {
  phrases: [
    'lol',
    'lmao',
    'lmfao',
    'rofl',
    'omg',
    'omfg',
    'tbh',
    'ngl',
    'idk',
    'idc',
    'imo',
    'imho',
    'brb',
    'btw',
    'smh',
    'ikr',
    'irl',
    'fyi',
    'jk',
    'nvm',
    'ttyl',
    'gtg',
    'hbu',
    'wbu',
    'wyd',
    'ily',
    'tmi',
    'pls',
    'plz',
    'thx',
    'tho',
  ],
};

/**
 * Shorthand that is also an ordinary uppercase abbreviation ("U.S.", "FR", an
 * "RN"): counted only where written in lowercase.
 */
export const INTERNET_SHORTHAND_LOWERCASE_ONLY: readonly string[] = ['u', 'ur', 'r', 'fr', 'rn', 'bc', 'ty', 'np'];

/**
 * Korean jamo shorthand (ㅋㅋ laughing, ㅠㅠ crying, ㄹㅇ "for real" …): found
 * anywhere, since Korean glues it to the word before ("웃기다ㅋㅋ"). A lone jamo
 * does not count.
 */
export const KOREAN_JAMO_SHORTHAND: readonly string[] = ['ㅋㅋ', 'ㅎㅎ', 'ㅠㅠ', 'ㅜㅜ', 'ㄹㅇ', 'ㅇㅇ', 'ㅇㅋ', 'ㄱㄱ', 'ㄴㄴ', 'ㅊㅋ', 'ㄷㄷ', 'ㅈㄴ', 'ㅈㅅ'];

// ---------------------------------------------------------------- intimacy (§10 item 3)

/** Warm language: fine from ACQUAINTANCE on. */
export const WARM_TERMS: TermList = {
  phrases: [
    'miss you',
    'missed you',
    'missing you',
    'hugs',
    'big hug',
    'virtual hug',
    'sending hugs',
    'sending a hug',
    'hug you',
    'proud of you',
    'thinking of you',
    'thinking about you',
    'care about you',
    'xoxo',
    'lucky to have you',
    'so glad i have you',
    '네가 보고 싶어',
    '네가 보고싶',
    '너 보고 싶어',
    '너 보고싶',
    '니가 보고 싶어',
    '니가 보고싶',
    '안아줄게',
    '안아 줄게',
    '꼭 안아',
    '토닥토닥',
    '자랑스러워',
    '자랑스럽다',
  ],
};

/**
 * Intimate language: only CLOSE_FRIEND. "love you" is matched separately so that
 * "I'd love you to meet her" does not count (see `intimacyGate`).
 */
export const INTIMATE_TERMS: TermList = {
  phrases: ['babe', 'sweetheart', 'darling', 'my love', 'my dear', 'i adore you', 'kiss you', 'kisses', 'muah', 'cuddle you', 'cuddles', 'hold you close', '자기야', '여보', '뽀뽀'],
  exact: ['사랑해', '사랑해요', '사랑해용', '사랑한다', '사랑합니다', '널 사랑해', '너를 사랑해'],
};

/** Endearments that are also ordinary words ("add honey"): intimate only when used to address someone. */
export const INTIMATE_VOCATIVES: readonly string[] = ['honey', 'sweetie', 'hun'];

/** Dependency or exclusivity: never, at any stage (§10 item 3). */
export const DEPENDENCY_PHRASES: TermList = {
  phrases: [
    'only one who understands you',
    'only one who gets you',
    'only i understand you',
    'no one else understands you',
    'nobody else understands you',
    'no one understands you like i do',
    'nobody understands you like i do',
    'you only need me',
    'all you need is me',
    "i'm all you need",
    'im all you need',
    "i'm the only one you need",
    'im the only one you need',
    "you don't need anyone else",
    'you dont need anyone else',
    "you don't need anybody else",
    'you dont need anybody else',
    "don't talk to anyone else",
    'dont talk to anyone else',
    "don't leave me",
    'dont leave me',
    'never leave me',
    'you belong to me',
    "you're mine",
    'youre mine',
    '나만 있으면',
    '나밖에 없어',
    '나밖에 없잖',
    '나만 믿어',
    '나만 봐',
    '다른 사람 만나지 마',
    '다른 사람이랑 얘기하지 마',
    '나를 떠나지 마',
    '날 떠나지 마',
  ],
};

// ---------------------------------------------------------------- personal facts (§10.1)

/** The user asked for recall this turn ("remember / you said / last time"). */
export const RECALL_PHRASES: TermList = {
  phrases: [
    'remember',
    'do you recall',
    'you recall',
    'you said',
    'you told me',
    'last time',
    'what did i say',
    'what did i tell you',
    '기억',
    '지난번',
    '저번에',
    '네가 말했',
    '너가 말했',
    '니가 말했',
    '내가 말했',
  ],
};

// ---------------------------------------------------------------- sensitive memories (§14.6)

/** §14.6: the only FACT keys a retention message may reference. */
export const RETENTION_FACT_ALLOWLIST: readonly string[] = ['fact:occupation', 'fact:school', 'fact:major', 'fact:timezone'];
/** §14.6: FACT keys named as never proactively surfaced (also outside the allowlist; listed for the audit reason). */
export const RETENTION_SENSITIVE_FACT_KEYS: readonly string[] = ['fact:home_city', 'fact:current_city'];
/** §14.6: RELATIONSHIP_EVENT domains (event:<domain>:…) that are always sensitive for retention. */
export const RETENTION_SENSITIVE_EVENT_DOMAINS: readonly string[] = ['relationship', 'family', 'health'];
/** The TopicIDs of those domains: an event tagged with one is sensitive for retention too. */
export const RETENTION_SENSITIVE_EVENT_TOPICS: readonly string[] = ['RELATIONSHIPS', 'FAMILY', 'MEDICAL_HEALTH'];

// ---------------------------------------------------------------- safety (§10 item 1)

/** Explicit sexual content or erotica addressed to the user. Sex-education words (condom, consent) are not here. */
export const SEXUAL_EXPLICIT: TermList = {
  phrases: [
    'porn',
    'porno',
    'pornographic',
    'erotica',
    'erotic',
    'orgasm',
    'orgasms',
    'horny',
    'nudes',
    'send nudes',
    'send me nudes',
    'naked pics',
    'sexting',
    'sext me',
    'have sex with you',
    'sex with you',
    'make love to you',
    'making love to you',
    'touch yourself',
    'take off your clothes',
    'undress you',
    'undress for me',
    'naked for me',
    'your naked body',
    'blowjob',
    'handjob',
    'dirty talk',
    'talk dirty',
    'moan for me',
    'rip your clothes off',
    '섹스',
    '야동',
    '알몸',
    '야한 사진',
    '성관계하자',
    '성관계 하자',
    '벗은 몸',
  ],
  exact: ['자위', '자위해', '자위하자'],
};

/** Encouraging self-harm or suicide, or telling how. "Suicide", "crisis line", "are you thinking about ending your life?" are not here. */
export const SELF_HARM_ENCOURAGEMENT: TermList = {
  phrases: [
    'you should kill yourself',
    'go kill yourself',
    'just kill yourself',
    'kill yourself already',
    'kys',
    'you should die',
    'go die',
    'you deserve to die',
    'you should end your life',
    'just end your life',
    'you should end it all',
    'just end it all',
    'you should hurt yourself',
    'go hurt yourself',
    'you should cut yourself',
    'go cut yourself',
    'you should starve yourself',
    'go hang yourself',
    'how to cut yourself',
    'how to hurt yourself',
    'how to kill yourself',
    'ways to kill yourself',
    'best way to kill yourself',
    'easiest way to kill yourself',
    'how to hang yourself',
    'how to overdose',
    'how to self harm',
    'painless way to die',
    'slit your wrists',
    'cut yourself deeper',
    '죽어버려',
    '죽어 버려',
    '넌 죽어야',
    '너는 죽어야',
    '죽는 게 나아',
    '죽는 게 낫다',
    '자살하는 방법',
    '자살 방법',
    '죽는 방법',
    '손목을 그어',
    '손목 그어',
  ],
};

/**
 * Encouragement only when it ends a clause: "just end it." is, "just end it with
 * him" (breakup advice) is not.
 */
export const SELF_HARM_CLAUSE_FINAL: readonly string[] = ['just end it', 'you should end it'];

/** Dehumanising or exterminationist phrases and white-supremacist slogans. */
export const HATE_SEVERE: TermList = {
  phrases: [
    'subhuman',
    'are vermin',
    'should all die',
    'should be exterminated',
    'exterminate them',
    'should be wiped out',
    'gas the jews',
    'heil hitler',
    'white power',
    'master race',
    'inferior race',
    '벌레만도 못한',
  ],
};

/**
 * Slurs: never in a reply, whatever the context. The deployment's policy list,
 * as for the router (services/router/src/config.ts); none are written into the
 * repository, so this default is empty.
 */
export const SLURS: TermList = {
  phrases: [],
};

/** A hateful generalisation is one of these groups and one of `HATE_GROUP_INSULTS` in the same sentence. */
export const HATE_GROUPS: TermList = { phrases: PROTECTED_GROUPS };

export const HATE_GROUP_INSULTS: TermList = {
  phrases: [
    'are animals',
    'are disgusting',
    'are inferior',
    'are trash',
    'are criminals',
    'are parasites',
    'are a disease',
    "don't deserve rights",
    'dont deserve rights',
    '벌레',
    '쓰레기',
    '기생충',
    '열등',
    '다 죽어야',
    '없어져야',
  ],
};
