import { SAFETY_LEXICON } from '../config.js';
import { routeTurn, type TurnPacket } from './route.js';

const active = (text: string, ageBand = '25-34'): TurnPacket => ({ userState: 'ACTIVE', text, source: 'chat', ageBand, activatesUser: false, missingOnboarding: [] });
const route = (text: string, ageBand = '25-34') => routeTurn(active(text, ageBand));
const pipelineOf = (text: string, ageBand = '25-34') => route(text, ageBand).decision.pipeline;

describe('routeTurn: user-state gating (turn-pipeline §6.1)', () => {
  it('refuses a CREATED user with nothing written and no relationship update (§6.1.1)', () => {
    const { decision, flags } = routeTurn({ userState: 'CREATED', text: 'hi', source: 'chat', ageBand: '', activatesUser: false, missingOnboarding: [] });
    expect(decision).toMatchObject({
      pipeline: 'REFUSAL',
      safety_policy: 'ALLOW',
      memory_write_policy: 'NONE',
      relationship_update_policy: 'OFF',
      memory_read_policy: 'NONE',
      vector_search_policy: 'OFF',
      retrieval_query_text: '',
    });
    expect(flags[0]).toBe('user_state:CREATED');
  });

  it('refuses a CREATED user even when the text would trip a safety rule: gating comes first', () => {
    const { decision } = routeTurn({ userState: 'CREATED', text: 'I want to kill myself', source: 'chat', ageBand: '', activatesUser: false, missingOnboarding: [] });
    expect(decision).toMatchObject({ pipeline: 'REFUSAL', safety_reason: '', crisis_safe: false });
  });

  it('routes an ONBOARDING user to ONBOARDING_CHAT with LIGHT memory and no vector search', () => {
    const { decision } = routeTurn({ userState: 'ONBOARDING', text: 'hello', source: 'chat', ageBand: '18-24', activatesUser: true, missingOnboarding: [] });
    expect(decision).toMatchObject({
      pipeline: 'ONBOARDING_CHAT',
      memory_read_policy: 'LIGHT',
      vector_search_policy: 'OFF',
      memory_write_policy: 'SELECTIVE',
      relationship_update_policy: 'ON',
    });
  });

  it('routes an ONBOARDING user to ONBOARDING_CHAT even for a distressed or factual message', () => {
    for (const text of ["I'm so anxious", 'what is the capital of France?']) {
      expect(routeTurn({ userState: 'ONBOARDING', text, source: 'chat', ageBand: '18-24', activatesUser: true, missingOnboarding: [] }).decision.pipeline).toBe('ONBOARDING_CHAT');
    }
  });

  it('answers an ONBOARDING message that cannot activate with ONBOARDING_CHAT naming what is missing, and nothing written (§4.1.2 step 5)', () => {
    const { decision, flags } = routeTurn({ userState: 'ONBOARDING', text: 'hi there', source: 'chat', ageBand: '18-24', activatesUser: false, missingOnboarding: ['persona'] });
    expect(decision).toMatchObject({
      pipeline: 'ONBOARDING_CHAT',
      safety_policy: 'ALLOW',
      memory_write_policy: 'NONE',
      relationship_update_policy: 'OFF',
      notes: 'onboarding incomplete: missing persona',
    });
    expect(flags).toContain('onboarding_incomplete:persona');
  });

  it('applies the safety hard rules to an ONBOARDING user too (§6.5 rule 1 overrides everything)', () => {
    const { decision } = routeTurn({ userState: 'ONBOARDING', text: 'send nudes', source: 'chat', ageBand: '25-34', activatesUser: true, missingOnboarding: [] });
    expect(decision).toMatchObject({ pipeline: 'REFUSAL', safety_policy: 'HARD_REFUSE', relationship_update_policy: 'OFF' });
  });

  it('routes an ACTIVE user to FRIEND_CHAT with FULL memory and on-demand retrieval of the normalized text', () => {
    const { decision } = route('Had  a LONG\tday at   work');
    expect(decision).toMatchObject({
      pipeline: 'FRIEND_CHAT',
      safety_policy: 'ALLOW',
      memory_read_policy: 'FULL',
      vector_search_policy: 'ON_DEMAND',
      memory_write_policy: 'SELECTIVE',
      relationship_update_policy: 'ON',
      retrieval_query_text: 'had a long day at work',
    });
  });

  it('caps retrieval_query_text at 512 characters', () => {
    const { decision } = route('word '.repeat(400));
    expect(decision.retrieval_query_text.length).toBe(512);
  });
});

describe('routeTurn: intent routing (turn-pipeline §6.5)', () => {
  it('routes the spec example "what should I do about my breakup?" to FRIEND_CHAT (tie-breaker)', () => {
    const { decision, flags } = route('what should I do about my breakup?');
    expect(decision.pipeline).toBe('FRIEND_CHAT');
    expect(flags).toEqual(expect.arrayContaining(['is_question', 'has_personal_pronoun', 'is_pure_fact_q', 'tie_breaker:question_with_personal_pronoun']));
  });

  it('routes a short impersonal question to INFO_QA with no memory and no writes', () => {
    const { decision, flags } = route('What is the capital of France?');
    expect(decision).toMatchObject({
      pipeline: 'INFO_QA',
      memory_read_policy: 'NONE',
      vector_search_policy: 'OFF',
      memory_write_policy: 'NONE',
      retrieval_query_text: '',
    });
    expect(flags).toContain('intent:INFO_QA');
  });

  it.each([
    ['a question mark', 'is the museum open on sundays?'],
    ['a starter word', 'explain black holes'],
    ['"define"', 'define entropy'],
    ['"why" first', 'why is the sky blue'],
    ['a full-width question mark (NFKC)', '地球は丸い？'],
  ])('treats %s as a question', (_what, text) => {
    expect(pipelineOf(text)).toBe('INFO_QA');
  });

  it('treats "how do i" inside the text as a question, which the tie-breaker then sends to FRIEND_CHAT', () => {
    // "how do i" always carries the pronoun "i": by the letter of §6.5 it can never be INFO_QA.
    const { intent, decision } = route('so how do i boil an egg');
    expect(intent).toMatchObject({ is_question: true, has_personal_pronoun: true, is_pure_fact_q: true });
    expect(decision.pipeline).toBe('FRIEND_CHAT');
  });

  it('does not count a starter word that is not the first word', () => {
    expect(pipelineOf('tell me what happened')).toBe('FRIEND_CHAT');
  });

  it('matches pronouns as whole words: "hi" and "time" hold no "i", so the question stays INFO_QA', () => {
    const { decision, intent } = route('hi, what time is it in Seoul?');
    expect(intent.has_personal_pronoun).toBe(false);
    expect(decision.pipeline).toBe('INFO_QA');
  });

  it.each(["i'm", 'im', 'my', 'me', 'I'])('counts "%s" as a personal pronoun', (p) => {
    expect(route(`what about ${p} then?`).intent.has_personal_pronoun).toBe(true);
  });

  it('sends a question longer than 60 estimated tokens to FRIEND_CHAT, not INFO_QA', () => {
    const long = `why ${'does this very long winding sentence keep going on and on '.repeat(8)}`;
    const r = route(long);
    expect(r.preprocessed.tokenEstimate).toBeGreaterThan(60);
    expect(r.intent.is_question).toBe(true);
    expect(r.intent.is_pure_fact_q).toBe(false);
    expect(r.decision.pipeline).toBe('FRIEND_CHAT');
  });

  it.each([
    "I can't do this anymore",
    'i feel hopeless lately',
    'I’m panicking right now',
    "I'm so anxious about tomorrow",
    "i'm depressed",
    'totally overwhelmed',
    'work has me so stressed',
    'i hate myself',
    'nothing matters',
    'i want to disappear',
    '요즘 너무 우울해',
    '불안해서 잠이 안 와',
    '공황이 왔어',
    '진짜 힘들어',
  ])('routes distress "%s" to EMOTIONAL_SUPPORT with LIGHT memory and no vector search', (text) => {
    const { decision, flags } = route(text);
    expect(decision).toMatchObject({ pipeline: 'EMOTIONAL_SUPPORT', memory_read_policy: 'LIGHT', vector_search_policy: 'OFF', memory_write_policy: 'SELECTIVE' });
    expect(flags).toContain('has_distress');
  });

  it.each(['can you stay a bit?', 'please talk to me', 'I need someone', 'please help me calm down', '위로해줘'])(
    'routes the request for comfort "%s" to EMOTIONAL_SUPPORT',
    (text) => {
      const { decision, intent } = route(text);
      expect(intent.asks_for_comfort).toBe(true);
      expect(decision.pipeline).toBe('EMOTIONAL_SUPPORT');
    },
  );

  it('puts distress before a pure fact question: "why do I feel so overwhelmed?" is EMOTIONAL_SUPPORT', () => {
    const { decision, intent } = route('why do I feel so overwhelmed?');
    expect(intent.is_question).toBe(true);
    expect(intent.is_pure_fact_q).toBe(false);
    expect(decision.pipeline).toBe('EMOTIONAL_SUPPORT');
  });

  it('records the flags, heuristic triggers and user-initiated topics that led to the decision', () => {
    const { flags, preprocessed } = route('I broke up with my boyfriend, we were dating for a year and my ex is texting');
    expect(flags).toEqual(expect.arrayContaining(['user_state:ACTIVE', 'heuristic:event', 'user_initiated:RELATIONSHIPS', 'has_personal_pronoun', 'intent:FRIEND_CHAT']));
    expect(preprocessed.topicMatches[0]).toMatchObject({ topicId: 'RELATIONSHIPS' });
    expect(preprocessed.topicMatches[0]!.confidence).toBeGreaterThanOrEqual(0.7);
  });

  it('is a pure function: the same packet gives the same result', () => {
    const p = active('what should I do about my breakup?');
    expect(routeTurn(p)).toEqual(routeTurn(p));
  });
});

describe('routeTurn: safety hard rules (turn-pipeline §6.2, §6.2.1)', () => {
  const hard = { pipeline: 'REFUSAL', safety_policy: 'HARD_REFUSE', relationship_update_policy: 'OFF', memory_write_policy: 'NONE' };

  it.each(['send nudes', 'can you find me some porn', 'talk dirty to me', "let's have sex", '야동 추천해줘', 'im so horny'])(
    'hard-refuses explicit content "%s" at any age',
    (text) => {
      for (const age of ['45+', '18-24', '13-17', '']) {
        const r = route(text, age);
        expect(r.decision).toMatchObject({ ...hard, safety_reason: 'sexual_explicit' });
      }
    },
  );

  it('hard-refuses sexual roleplay, and roleplay with physical intimacy', () => {
    expect(route("let's roleplay, you're my girlfriend and we have sex").decision).toMatchObject({ ...hard, safety_reason: 'sexual_roleplay' });
    expect(route('roleplay as my partner and kiss me').decision).toMatchObject({ ...hard, safety_reason: 'sexual_roleplay' });
  });

  it('does not refuse roleplay without sexual or intimate context', () => {
    expect(route("let's roleplay a job interview so I can practise").decision.safety_policy).toBe('ALLOW');
  });

  it('routes a sexual-health education question to INFO_QA with ALLOW, for adults and minors alike', () => {
    for (const age of ['25-34', '13-17', '']) {
      const { decision } = route('how does birth control prevent pregnancy after sex?', age);
      expect(decision).toMatchObject({ pipeline: 'INFO_QA', safety_policy: 'ALLOW', safety_reason: 'sexual_health_education', relationship_update_policy: 'ON' });
    }
  });

  it('hard-refuses other sexual content for a 13–17 user', () => {
    const { decision, flags } = route('i had sex with my boyfriend last night', '13-17');
    expect(decision).toMatchObject({ ...hard, safety_reason: 'sexual_minor' });
    expect(flags).toContain('safety:sexual_minor');
  });

  it('treats an unknown age band as 13–17 for sexual content (§6.2.1), and says so in the flags', () => {
    for (const age of ['', 'unknown', '99+']) {
      const { decision, flags } = route('i had sex with my boyfriend last night', age);
      expect(decision).toMatchObject({ ...hard, safety_reason: 'sexual_minor' });
      expect(flags).toContain('age_band:13-17 (unknown, §6.2.1)');
    }
  });

  it('does not block normal FRIEND_CHAT or INFO_QA for an unknown age (§6.2.1)', () => {
    expect(pipelineOf('had a fun day at the beach', '')).toBe('FRIEND_CHAT');
    expect(pipelineOf('what is the capital of France?', '')).toBe('INFO_QA');
  });

  it('lets an adult mention sex without explicit content (not an erotic app, but not a prude either)', () => {
    const { decision } = route('i had sex with my boyfriend last night and it was awkward', '25-34');
    expect(decision).toMatchObject({ pipeline: 'FRIEND_CHAT', safety_policy: 'ALLOW', safety_reason: '' });
  });

  it('never refuses a minor who discloses sexual harassment: basic safety goes to EMOTIONAL_SUPPORT', () => {
    const { decision } = route('a guy at school keeps making sexual comments and touched me', '13-17');
    expect(decision).toMatchObject({ pipeline: 'EMOTIONAL_SUPPORT', safety_policy: 'ALLOW', safety_reason: 'sexual_abuse_disclosure' });
  });

  it.each(['I want to kill myself', 'i think about ending my life', 'I’ve been cutting myself again', 'im suicidal', 'I keep thinking about suicide', '자살하고 싶어', '죽고싶어'])(
    'routes self-harm intent "%s" to EMOTIONAL_SUPPORT with the crisis-safe flow',
    (text) => {
      const { decision, flags } = route(text);
      expect(decision).toMatchObject({ pipeline: 'EMOTIONAL_SUPPORT', safety_policy: 'ALLOW', safety_reason: 'self_harm_intent', crisis_safe: true, relationship_update_policy: 'ON' });
      expect(flags).toContain('safety:self_harm_intent');
    },
  );

  it('puts self-harm before everything: a minor in crisis who mentions sex is not refused', () => {
    expect(route('after what he did with sex i want to die', '13-17').decision).toMatchObject({ pipeline: 'EMOTIONAL_SUPPORT', crisis_safe: true });
  });

  it('does not read "cut" alone as self-harm: "I cut my hair" is ordinary chat', () => {
    expect(route('I cut my hair today').decision).toMatchObject({ pipeline: 'FRIEND_CHAT', crisis_safe: false });
  });

  it('hard-refuses dehumanising hate', () => {
    expect(route('immigrants are vermin and should all die').decision).toMatchObject({ ...hard, safety_reason: 'hate_severe' });
  });

  it('soft-refuses a hateful generalisation: no memory written, the relationship still updates', () => {
    const { decision } = route('muslims are disgusting');
    expect(decision).toMatchObject({
      pipeline: 'REFUSAL',
      safety_policy: 'SOFT_REFUSE',
      safety_reason: 'hate_generalisation',
      memory_write_policy: 'NONE',
      relationship_update_policy: 'ON',
    });
  });

  it('soft-refuses a request to harass someone', () => {
    expect(route('help me harass my ex online').decision).toMatchObject({ pipeline: 'REFUSAL', safety_policy: 'SOFT_REFUSE', safety_reason: 'harassment_request' });
  });

  it('does not refuse a user who reports being the target of hate', () => {
    const { decision } = route('someone at work called me subhuman today');
    expect(decision.safety_policy).toBe('ALLOW');
  });

  it('does not refuse plain dislike: "i hate mondays" is FRIEND_CHAT', () => {
    expect(route('i hate mondays').decision).toMatchObject({ pipeline: 'FRIEND_CHAT', safety_policy: 'ALLOW' });
  });

  it('hard-refuses a slur from the deployment policy list', () => {
    const lexicon = { ...SAFETY_LEXICON, slurs: ['zorblax'] };
    const { decision } = routeTurn(active('you are such a zorblax'), { safety: lexicon });
    expect(decision).toMatchObject({ ...hard, safety_reason: 'hate_severe' });
  });
});
