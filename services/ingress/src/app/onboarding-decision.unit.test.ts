import { Events } from '@hearth/events';
import { onboardingAnswersSchema } from '../users/answers.js';
import type { UserSnapshot } from '../users/user.js';
import { decideAnswerOnboarding, decideCreateMe, lifeOf, perLife } from './onboarding-decision.js';

const AT = new Date('2026-03-01T09:00:00.000Z');
const USER = '0b6f4a52-6c1e-4d0b-9a43-1f3f1c7b2a10';

const answers = onboardingAnswersSchema.parse({
  preferred_name: 'Mina',
  age_band: '25-34',
  country_or_region: 'kr',
  occupation_category: 'working',
  client_timezone: 'Asia/Seoul',
  proactive_messages_enabled: true,
  suppressed_topics: ['POLITICS'],
});

const user = (over: Partial<UserSnapshot> = {}): UserSnapshot => ({ userId: USER, state: 'CREATED', answers: null, aiFriendId: null, hasPersona: false, ...over });

describe('the life of a user (erasure and a new start)', () => {
  it('is 1 without a data key, the key generation while it lives, the next one once it is erased', () => {
    expect(lifeOf(null)).toBe(1);
    expect(lifeOf({ generation: 0, erased: false })).toBe(1);
    expect(lifeOf({ generation: 2, erased: false })).toBe(2);
    expect(lifeOf({ generation: 2, erased: true })).toBe(3);
  });

  it('keeps the first life its ids, and gives each later life its own', () => {
    expect(perLife(1, 'ingress', 'ai-friend', USER)).toBe(perLife(1, 'ingress', 'ai-friend', USER));
    expect(perLife(2, 'ingress', 'ai-friend', USER)).not.toBe(perLife(1, 'ingress', 'ai-friend', USER));
  });
});

describe('POST /v1/me', () => {
  it('given no user, when created, then UserCreated opening the data key, its id per life', () => {
    const d = decideCreateMe(USER, null, 1, AT);

    const [e] = d.kind === 'append' ? d.events : [];
    expect(e).toMatchObject({ type: Events.UserCreated.name, userId: USER, occurredAt: AT, opensDataKey: true, id: perLife(1, 'ingress', 'user-created', USER) });
    expect(e!.correlationId).toBe(e!.id);
    expect(decideCreateMe(USER, null, 2, AT)).toMatchObject({ kind: 'append', events: [{ id: perLife(2, 'ingress', 'user-created', USER) }] });
  });

  it('given the user, when created again, then nothing', () => {
    expect(decideCreateMe(USER, user(), 1, AT)).toEqual({ kind: 'noop' });
  });
});

describe('PUT /v1/me/onboarding', () => {
  it('given a new user, when they answer, then OnboardingAnswered with a friend of this life, its id from the chain head', () => {
    const d = decideAnswerOnboarding(USER, user(), answers, 2, 7, AT);

    const [e] = d.kind === 'append' ? d.events : [];
    expect(e).toMatchObject({ type: Events.OnboardingAnswered.name, userId: USER, occurredAt: AT });
    expect(Events.OnboardingAnswered.decode(e!.payload)).toMatchObject({
      answers: {
        preferredName: 'Mina',
        ageBand: '25-34',
        countryOrRegion: 'KR',
        occupationCategory: 'working',
        clientTimezone: 'Asia/Seoul',
        proactiveMessagesEnabled: true,
        suppressedTopics: ['POLITICS'],
      },
      aiFriendId: perLife(2, 'ingress', 'ai-friend', USER),
    });
    expect(decideAnswerOnboarding(USER, user(), answers, 2, 7, AT)).toMatchObject({ kind: 'append', events: [{ id: e!.id }] });
    expect(decideAnswerOnboarding(USER, user(), answers, 2, 8, AT)).not.toMatchObject({ kind: 'append', events: [{ id: e!.id }] });
  });

  it('given a user who answered the same, when they answer again, then nothing', () => {
    expect(decideAnswerOnboarding(USER, user({ state: 'ONBOARDING', answers, aiFriendId: 'f' }), answers, 1, 3, AT)).toEqual({ kind: 'noop' });
  });

  it('given an active user, when they answer, then 409 ONBOARDING_COMPLETED', () => {
    expect(decideAnswerOnboarding(USER, user({ state: 'ACTIVE', answers }), answers, 1, 3, AT)).toMatchObject({ kind: 'reject', status: 409, code: 'ONBOARDING_COMPLETED' });
  });
});
