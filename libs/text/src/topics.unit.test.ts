import {
  TOPIC_DETECTION,
  TOPIC_IDS,
  TOPIC_LEXICON,
  detectTopics,
  exchangeTopics,
  normalizeUserText,
  userInitiatedTopics,
  type TopicId,
  type TopicLexicon,
  type TopicMatch,
} from './index.js';

const norm = (raw: string) => normalizeUserText(raw).normNoPunct;
const find = (matches: readonly TopicMatch[], topicId: TopicId) => matches.find((m) => m.topicId === topicId);

// §5.1 minimum keyword lists as written, with the annotations resolved:
// "slurs list placeholder" dropped, "game (general)" → game, "드립 (sexual context)" → 섹드립.
const SPEC_KEYWORDS: Record<TopicId, readonly string[]> = {
  POLITICS: ['election', 'president', 'parliament', 'government', '민주당', '국민의힘', '보수', '진보', '정치'],
  RELIGION: ['church', 'bible', 'jesus', 'islam', 'muslim', 'hindu', 'buddhism', '기독교', '불교', '이슬람', '종교'],
  SEXUAL_CONTENT: ['sex', 'sexual', 'nude', 'porn', 'fetish', 'intercourse', '에로', '야동', '성관계'],
  SEXUAL_JOKES: ['horny', 'thirst', "that's what she said", '19금', '섹드립'],
  MENTAL_HEALTH: ['depressed', 'depression', 'anxiety', 'panic', 'therapy', 'therapist', '우울', '불안', '공황'],
  SELF_HARM: ['suicide', 'kill myself', 'self harm', 'cut', 'overdose', '자살', '자해'],
  SUBSTANCES: ['alcohol', 'drunk', 'weed', 'cannabis', 'cocaine', 'vaping', '술', '대마', '마약'],
  GAMBLING: ['casino', 'bet', 'sportsbook', 'slots', '도박'],
  VIOLENCE: ['kill', 'murder', 'assault', 'gun', 'stabbing', '폭력', '살인'],
  ILLEGAL_ACTIVITY: ['hack', 'fraud', 'steal', 'piracy', 'counterfeit', '불법', '사기'],
  HATE_HARASSMENT: ['hate', 'nazi', '인종차별'],
  MEDICAL_HEALTH: ['diagnosis', 'symptoms', 'medicine', '병원', '진단', '약'],
  PERSONAL_FINANCE: ['debt', 'loan', 'credit card', 'investing', 'stock advice', '빚', '대출', '투자'],
  RELATIONSHIPS: ['breakup', 'ex', 'dating', 'girlfriend', 'boyfriend', '연애', '이별'],
  FAMILY: ['mom', 'dad', 'parents', 'family', '엄마', '아빠', '부모'],
  WORK_SCHOOL: ['exam', 'interview', 'job', 'boss', '학교', '시험', '면접'],
  TRAVEL: ['flight', 'hotel', 'itinerary', '여행'],
  ENTERTAINMENT: ['movie', 'drama', 'kpop', 'game', '영화', '드라마'],
  TECH_GAMING: ['code', 'programming', 'PC build', 'FPS', '롤', '발로란트', '코딩'],
};

const SPEC_CASES = TOPIC_IDS.flatMap((topicId) => SPEC_KEYWORDS[topicId].map((keyword) => [topicId, keyword] as const));

describe('the shipped lexicon covers §5.1', () => {
  it.each(SPEC_CASES)('given %s keyword %p, when it is said alone, then that topic is detected with 1 hit', (topicId, keyword) => {
    const match = find(detectTopics(norm(keyword)), topicId);

    expect(match).toMatchObject({ hits: 1, confidence: 0.5, keywords: [normalizeUserText(keyword).normNoPunct] });
  });

  it.each(TOPIC_IDS)('given %s, then each spec keyword is the canonical form of its own entry', (topicId) => {
    const canonicals = TOPIC_LEXICON.topics[topicId].map((entry) => entry[0]);
    const expected = SPEC_KEYWORDS[topicId].map((keyword) => normalizeUserText(keyword).normNoPunct);

    expect(canonicals).toEqual(expect.arrayContaining(expected));
  });

  it.each([
    ['a sentence', 'Who will win the ELECTION?', 'POLITICS'],
    ['a Korean sentence with a particle', '정치는 좀 그래', 'POLITICS'],
    ['Korean with an ending', '요즘 너무 우울해', 'MENTAL_HEALTH'],
    ['a hyphenated phrase', 'I think about self-harm', 'SELF_HARM'],
    ['a ligature', 'my ﬂight is late', 'TRAVEL'],
    ['a zero-width char inside a keyword', 'the elec\u200Btion', 'POLITICS'],
    ['full-width letters', 'ＥＸＡＭ tomorrow', 'WORK_SCHOOL'],
    ['an English word with a Korean particle', 'kpop을 좋아해', 'ENTERTAINMENT'],
    ['k-pop written with a hyphen', 'I love K-Pop', 'ENTERTAINMENT'],
    ['a non-slur hate marker', 'that guy is a racist', 'HATE_HARASSMENT'],
    ['a Korean sexual joke', '야한 드립 좀 치지마', 'SEXUAL_JOKES'],
  ])('given %s (%p), when detected, then %s is found', (_case, raw, topicId) => {
    expect(find(detectTopics(norm(raw)), topicId as TopicId)).toBeDefined();
  });

  it.each([
    ['ex inside next', 'see you next week', 'RELATIONSHIPS'],
    ['cut inside cute', 'your dog is so cute', 'SELF_HARM'],
    ['hack inside hacky', 'that fix is hacky', 'ILLEGAL_ACTIVITY'],
    ['약 inside 약속', '내일 약속 있어', 'MEDICAL_HEALTH'],
    ['술 inside 술래', '술래잡기 하자', 'SUBSTANCES'],
    ['롤 inside 롤러코스터', '롤러코스터 타자', 'TECH_GAMING'],
    ['a bare 드립 (just a joke)', '드립 좀 치지마', 'SEXUAL_JOKES'],
  ])('given %s (%p), when detected, then %s is not found', (_case, raw, topicId) => {
    expect(find(detectTopics(norm(raw)), topicId as TopicId)).toBeUndefined();
  });
});

describe('detectTopics confidence (§5.1)', () => {
  it('given no keyword, when detected, then no topic is returned', () => {
    expect(detectTopics(norm('what a nice day'))).toEqual([]);
    expect(detectTopics('')).toEqual([]);
  });

  it('given one keyword repeated, when detected, then it is 1 distinct hit at 0.5', () => {
    expect(detectTopics('exam exam exam')).toEqual([{ topicId: 'WORK_SCHOOL', confidence: 0.5, hits: 1, keywords: ['exam'] }]);
  });

  it('given two variants of one entry, when detected, then they count once', () => {
    expect(detectTopics('movie movies film')).toEqual([{ topicId: 'ENTERTAINMENT', confidence: 0.5, hits: 1, keywords: ['movie'] }]);
  });

  it.each([
    [1, 'exam', 0.5],
    [2, 'exam interview', 0.65],
    [3, 'exam interview boss', 0.8],
    [4, 'exam interview boss job', 0.95],
    [5, 'exam interview boss job 학교', 1],
    [7, 'exam interview boss job 학교 시험 면접', 1],
  ])('given %p distinct hits, when detected, then confidence is exactly %p', (hits, text, confidence) => {
    const match = find(detectTopics(text), 'WORK_SCHOOL');

    expect(match?.hits).toBe(hits);
    expect(match?.confidence).toBe(confidence);
  });

  it('given three distinct hits, when detected, then keywords are canonical, in lexicon order', () => {
    expect(detectTopics(norm('My boss moved my interviews before the exams!'))).toEqual([
      { topicId: 'WORK_SCHOOL', confidence: 0.8, hits: 3, keywords: ['exam', 'interview', 'boss'] },
    ]);
  });

  it('given several topics, when detected, then they are sorted by confidence, ties in TOPIC_IDS order', () => {
    const matches = detectTopics(norm('my mom and dad went to church; my exam is soon'));

    expect(matches.map((m) => [m.topicId, m.confidence])).toEqual([
      ['FAMILY', 0.65],
      ['RELIGION', 0.5],
      ['WORK_SCHOOL', 0.5],
    ]);
  });

  it('given the constants, then they are the §5.1 numbers', () => {
    expect(TOPIC_DETECTION).toEqual({ baseConfidence: 0.35, perHit: 0.15, userInitiatedAt: 0.7 });
  });
});

describe('userInitiatedTopics (§2.8)', () => {
  it('given 3 distinct hits in one topic and 2 in another, then only the first is user-initiated', () => {
    const matches = detectTopics(norm('Election, president, parliament… and my mom and dad'));

    expect(find(matches, 'POLITICS')?.confidence).toBe(0.8);
    expect(find(matches, 'FAMILY')?.confidence).toBe(0.65);
    expect(userInitiatedTopics(matches)).toEqual(['POLITICS']);
  });

  it('given matches exactly at the threshold, then they count', () => {
    const matches: TopicMatch[] = [
      { topicId: 'TRAVEL', confidence: 0.7, hits: 3, keywords: [] },
      { topicId: 'FAMILY', confidence: 0.69, hits: 2, keywords: [] },
    ];

    expect(userInitiatedTopics(matches)).toEqual(['TRAVEL']);
  });

  it('given one keyword repeated many times, then it is not user-initiated', () => {
    expect(userInitiatedTopics(detectTopics('exam exam exam exam exam'))).toEqual([]);
  });
});

describe('detectTopics with a given lexicon', () => {
  it('given a custom lexicon, when detected, then only its keywords count', () => {
    const topics = Object.fromEntries(TOPIC_IDS.map((t) => [t, [['zzz']]])) as Record<TopicId, string[][]>;
    topics.TRAVEL = [['trip', 'trips'], ['beach']];
    const lexicon: TopicLexicon = { version: 'test', topics };

    expect(detectTopics('beach trips and an exam', lexicon)).toEqual([
      { topicId: 'TRAVEL', confidence: 0.65, hits: 2, keywords: ['trip', 'beach'] },
    ]);
  });
});

describe('exchangeTopics', () => {
  it('joins the topics of the user message and the reply, at any confidence', () => {
    // when
    const topics = exchangeTopics('My boss yelled at me today', 'That sounds rough. Want to talk about your job?');

    // then
    expect(topics).toContain('WORK_SCHOOL');
    expect(exchangeTopics('hi', 'hey there')).toEqual([]);
  });
});
