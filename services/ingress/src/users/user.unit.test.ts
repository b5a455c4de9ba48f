import { onboardingAnswersSchema, REQUIRED_ANSWERS } from './answers.js';
import { decideCreateUser, decideOnboarding, decideTurn, stateAfterTurn, type UserSnapshot } from './user.js';

const answers = onboardingAnswersSchema.parse({
  preferred_name: 'Mina',
  age_band: '25-34',
  country_or_region: 'kr',
  occupation_category: 'working',
  client_timezone: 'Asia/Seoul',
  proactive_messages_enabled: true,
  suppressed_topics: ['POLITICS', 'POLITICS'],
});

const user = (over: Partial<UserSnapshot> = {}): UserSnapshot => ({
  userId: 'u1',
  state: 'CREATED',
  answers: null,
  aiFriendId: null,
  hasPersona: false,
  ...over,
});

describe('onboarding answers (turn-pipeline §4.1.1)', () => {
  it('normalises region case and de-duplicates topics', () => {
    expect(answers.country_or_region).toBe('KR');
    expect(answers.suppressed_topics).toEqual(['POLITICS']);
  });

  it('accepts the spec en dash in age bands', () => {
    expect(onboardingAnswersSchema.parse({ ...answers, age_band: '13–17' }).age_band).toBe('13-17');
  });

  it.each([
    ['age_band', '30-40'],
    ['client_timezone', 'Mars/Olympus'],
    ['country_or_region', 'XX'],
    ['occupation_category', 'astronaut'],
    ['suppressed_topics', ['WEATHER']],
    ['preferred_name', '   '],
  ])('rejects a bad %s', (field, value) => {
    const r = onboardingAnswersSchema.safeParse({ ...answers, [field]: value });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path[0]).toBe(field);
  });

  it('rejects unknown fields and missing answers', () => {
    expect(onboardingAnswersSchema.safeParse({ ...answers, favourite_colour: 'red' }).success).toBe(false);
    const { proactive_messages_enabled: _, ...missing } = answers;
    expect(onboardingAnswersSchema.safeParse(missing).success).toBe(false);
  });
});

describe('user decisions', () => {
  it('creates a user once', () => {
    expect(decideCreateUser(null)).toEqual({ kind: 'append', events: [{ type: 'UserCreated' }] });
    expect(decideCreateUser(user())).toEqual({ kind: 'noop' });
  });

  it('takes onboarding answers from CREATED and ONBOARDING, not from ACTIVE', () => {
    expect(decideOnboarding(user(), answers, 'f1').kind).toBe('append');
    expect(decideOnboarding(user({ state: 'ONBOARDING', answers: { ...answers, preferred_name: 'X' } }), answers, 'f1').kind).toBe('append');
    expect(decideOnboarding(user({ state: 'ONBOARDING', answers }), answers, 'f1').kind).toBe('noop');
    expect(decideOnboarding(user({ state: 'ACTIVE', answers }), answers, 'f1')).toMatchObject({ kind: 'reject', status: 409 });
    expect(decideOnboarding(null, answers, 'f1')).toMatchObject({ kind: 'reject', status: 404 });
  });

  it('keeps the first ai_friend_id when answers change', () => {
    const d = decideOnboarding(user({ state: 'ONBOARDING', answers, aiFriendId: 'f0' }), { ...answers, preferred_name: 'Y' }, 'f1');
    expect(d).toMatchObject({ kind: 'append', events: [{ aiFriendId: 'f0' }] });
  });

  it('activates an onboarding user with answers and persona on its first message (§4.1.2)', () => {
    const cmd = { messageId: 'm', conversationId: 'c', text: 'hi' };
    expect(decideTurn(user({ state: 'ONBOARDING', answers, hasPersona: true }), cmd)).toMatchObject({
      kind: 'append',
      events: [{ userState: 'ONBOARDING', activatesUser: true, clientTimezone: 'Asia/Seoul' }],
    });
    expect(decideTurn(user({ state: 'ONBOARDING', answers, hasPersona: false }), cmd)).toMatchObject({
      events: [{ activatesUser: false, missingOnboarding: ['persona'] }],
    });
    expect(decideTurn(user({ state: 'ONBOARDING', answers: null, hasPersona: false }), cmd)).toMatchObject({
      events: [{ activatesUser: false, missingOnboarding: [...REQUIRED_ANSWERS, 'persona'] }],
    });
    expect(decideTurn(user({ state: 'ONBOARDING', answers, hasPersona: true }), cmd)).toMatchObject({ events: [{ missingOnboarding: [] }] });
    expect(decideTurn(user({ state: 'ACTIVE', answers, hasPersona: true }), cmd)).toMatchObject({ events: [{ activatesUser: false }] });
    expect(decideTurn(user(), cmd)).toMatchObject({ events: [{ userState: 'CREATED', activatesUser: false }] });
    expect(stateAfterTurn('ONBOARDING', true)).toBe('ACTIVE');
  });
});

describe('required onboarding answers (turn-pipeline §4.1.1)', () => {
  it('are exactly the seven of the canonical mirror, in order', () => {
    expect(REQUIRED_ANSWERS).toEqual([
      'preferred_name',
      'age_band',
      'country_or_region',
      'occupation_category',
      'client_timezone',
      'proactive_messages_enabled',
      'suppressed_topics',
    ]);
  });
});
