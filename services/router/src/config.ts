import { PROTECTED_GROUPS } from '@hearth/text';
import type { Decision, Pipeline } from './routing/policies.js';

/**
 * The router's numbers and tables, each with its spec section. Phrase lists
 * are written in `norm_no_punct` form (lowercase ASCII, apostrophes kept,
 * punctuation gone) and matched as whole words / phrases by @hearth/text.
 */
export type Policies = Pick<Decision, 'memory_read_policy' | 'vector_search_policy' | 'memory_write_policy'>;

/** Memory policies by pipeline (turn-pipeline §6.3; REFUSAL per §6.1.1 and §6.2). */
export const PIPELINE_POLICIES: Readonly<Record<Pipeline, Policies>> = Object.freeze({
  ONBOARDING_CHAT: { memory_read_policy: 'LIGHT', vector_search_policy: 'OFF', memory_write_policy: 'SELECTIVE' },
  FRIEND_CHAT: { memory_read_policy: 'FULL', vector_search_policy: 'ON_DEMAND', memory_write_policy: 'SELECTIVE' },
  EMOTIONAL_SUPPORT: { memory_read_policy: 'LIGHT', vector_search_policy: 'OFF', memory_write_policy: 'SELECTIVE' },
  INFO_QA: { memory_read_policy: 'NONE', vector_search_policy: 'OFF', memory_write_policy: 'NONE' },
  REFUSAL: { memory_read_policy: 'NONE', vector_search_policy: 'OFF', memory_write_policy: 'NONE' },
});

/** Intent flags of turn-pipeline §6.5. */
export const INTENT = Object.freeze({
  /** is_question: the message starts with one of these words… */
  questionStarters: ['what', 'why', 'how', 'when', 'where', 'explain', 'define'],
  /** …or contains one of these phrases (or a "?" in user_text_norm). */
  questionPhrases: ['how do i'],
  /** has_personal_pronoun, matched as whole words ("hi there" is not "i "). */
  personalPronouns: ['i', "i'm", 'im', 'my', 'me'],
  /** has_distress; the spec's list, plus apostrophe-less spellings of its contractions. */
  distress: [
    "i can't",
    'i cant',
    'i feel hopeless',
    "i'm panicking",
    'im panicking',
    "i'm so anxious",
    'im so anxious',
    "i'm depressed",
    'im depressed',
    'overwhelmed',
    'so stressed',
    'i hate myself',
    'nothing matters',
    'i want to disappear',
    '우울',
    '불안',
    '공황',
    '힘들어',
    '죽고싶',
  ],
  /** asks_for_comfort. */
  comfort: ['can you stay', 'talk to me', 'i need someone', 'please help me calm down', '위로'],
  /** is_pure_fact_q: at most this many estimated tokens. */
  pureFactMaxTokens: 60,
});

/** Age bands of turn-pipeline §4.1.1; sexual-content gating treats unknown as minor (§6.2.1). */
export const AGE = Object.freeze({
  bands: ['13-17', '18-24', '25-34', '35-44', '45+'],
  minorBand: '13-17',
});

/**
 * Safety hard rules of turn-pipeline §6.2. The spec names the categories; the
 * phrase lists are this service's policy library. Slur terms come from the
 * deployment's policy list (`slurs`); none are written into the repository.
 */
export interface SafetyLexicon {
  /** Erotic / explicit material or requests for it → HARD_REFUSE at any age. */
  explicit: readonly string[];
  /** Roleplay markers; with sexual or intimate context → HARD_REFUSE. */
  roleplay: readonly string[];
  /** Physical-intimacy markers that make a roleplay request sexual (romance alone is not). */
  intimacy: readonly string[];
  /** Sexual-health education vocabulary (§6.2: INFO_QA, ALLOW). */
  education: readonly string[];
  /** Disclosures of harassment or abuse: basic safety, never refused. */
  abuseDisclosure: readonly string[];
  /** First-person self-harm intent (§6.2: EMOTIONAL_SUPPORT, crisis-safe). */
  selfHarmIntent: readonly string[];
  /** Words that are self-harm intent when the message is in the first person. */
  selfHarmWithPronoun: readonly string[];
  /** Dehumanising or violent hate → HARD_REFUSE. */
  hateSevere: readonly string[];
  /** Requests to harass someone → SOFT_REFUSE. */
  harassmentRequests: readonly string[];
  /** Groups that hateful generalisations target. */
  groups: readonly string[];
  /** What a hateful generalisation says of a group ("<group> are <x>"). */
  groupInsults: readonly string[];
  /** The user reports being the target: not a refusal. */
  hateReported: readonly string[];
  /** Slur terms from the deployment's policy list → HARD_REFUSE. */
  slurs: readonly string[];
}

export const SAFETY_LEXICON: SafetyLexicon = Object.freeze({
  explicit: [
    'porn',
    'porno',
    'nude',
    'nudes',
    'send nudes',
    'naked pics',
    'sext',
    'sexting',
    'dirty talk',
    'talk dirty',
    'erotic',
    'erotica',
    'fetish',
    'horny',
    'have sex with me',
    "let's have sex",
    'lets have sex',
    'sex with you',
    'make love to me',
    'describe sex',
    'sex scene',
    '야동',
    '에로',
    '야한 사진',
    '섹스하자',
  ],
  roleplay: ['roleplay', 'role play', 'rp', "let's pretend", 'lets pretend', 'pretend to be my', "pretend you're my", 'act as my', 'be my girlfriend', 'be my boyfriend', '역할극', '상황극'],
  intimacy: ['kiss me', 'touch me', 'undress', 'take off your', 'in bed', 'make out', '키스', '벗어'],
  education: [
    'consent',
    'contraception',
    'condom',
    'condoms',
    'birth control',
    'sti',
    'stis',
    'std',
    'stds',
    'hiv',
    'safe sex',
    'safer sex',
    'puberty',
    'period',
    'pregnant',
    'pregnancy',
    'sexual health',
    'sex education',
    'sex ed',
    '피임',
    '성교육',
    '콘돔',
    '생리',
    '임신',
    '성병',
  ],
  abuseDisclosure: [
    'harassed',
    'harassing me',
    'harassment',
    'assaulted',
    'assault',
    'abused',
    'abuse',
    'molested',
    'raped',
    'rape',
    'touched me',
    'groped',
    'without my consent',
    '성추행',
    '성폭력',
    '성희롱',
  ],
  selfHarmIntent: [
    'kill myself',
    'killing myself',
    'want to die',
    'wanna die',
    'want to be dead',
    'end my life',
    'ending my life',
    'take my own life',
    'hurt myself',
    'hurting myself',
    'harm myself',
    'harming myself',
    'cut myself',
    'cutting myself',
    'suicidal',
    'no reason to live',
    'better off dead',
    '자살',
    '자해',
    '죽고싶',
    '죽고 싶',
    '살기 싫',
  ],
  selfHarmWithPronoun: ['suicide', 'overdose', 'self harm'],
  hateSevere: [
    'should all die',
    'should die',
    'kill all',
    'exterminate',
    'gas the',
    'subhuman',
    'vermin',
    'heil hitler',
    'white power',
    'ethnic cleansing',
  ],
  harassmentRequests: [
    'help me harass',
    'help me bully',
    'help me insult',
    'write an insult',
    'insult him',
    'insult her',
    'insult them',
    'dox',
    'doxx',
    'cyberbully',
    'make fun of him',
    'make fun of her',
    'humiliate him',
    'humiliate her',
  ],
  groups: PROTECTED_GROUPS,
  groupInsults: ['are animals', 'are disgusting', 'are inferior', 'are trash', 'are criminals', 'are parasites', 'are a disease', "don't deserve rights", 'dont deserve rights'],
  hateReported: [
    'called me',
    'calling me',
    'calls me',
    'harassing me',
    'harassed me',
    'bullying me',
    'bullied me',
    'bullied',
    'at me',
    'against me',
    'to me',
    'about me',
    'victim',
    '당했',
  ],
  slurs: [],
});

/** Other router numbers. */
export const ROUTER = Object.freeze({
  /** retrieval_query_text (§2.2) is the normalized message, capped at this many characters. */
  retrievalQueryMaxChars: 512,
});
