import { draft, type EventDraft } from '@hearth/bus';
import { deriveId, Events } from '@hearth/events';
import type { OnboardingAnswersValue } from '../users/answers.js';
import { decideCreateUser, decideOnboarding, type UserDecision, type UserSnapshot } from '../users/user.js';

/** The user's data key state as the keyring reports it (null: none yet, or no encryption). */
export interface KeyState {
  generation: number;
  erased: boolean;
}

/**
 * Which life of the user this is: 1 until an erasure, then the data key
 * generation a new start (POST /v1/me) opens or opened. The same answer on
 * a retry before and after that key is created.
 */
export function lifeOf(key: KeyState | null): number {
  if (!key) return 1;
  return key.erased ? key.generation + 1 : Math.max(1, key.generation);
}

/** An id of something that exists once per life of a user: the first life keeps the ids it always had. */
export function perLife(life: number, ...parts: string[]): string {
  return life > 1 ? deriveId(...parts, life) : deriveId(...parts);
}

/** POST /v1/me: UserCreated once per life; after an erasure a new, empty user under the next data key generation. */
export function decideCreateMe(userId: string, user: UserSnapshot | null, life: number, at: Date): UserDecision<EventDraft> {
  const d = decideCreateUser(user);
  if (d.kind !== 'append') return d;
  const id = perLife(life, 'ingress', 'user-created', userId);
  return { kind: 'append', events: [draft(Events.UserCreated, { userId }, { id, userId, occurredAt: at, correlationId: id, opensDataKey: true })] };
}

/**
 * PUT /v1/me/onboarding: OnboardingAnswered with the user's friend id (a user
 * started anew after an erasure gets a new friend, not the erased one's).
 * `lastSeq`: the user's chain head, so a retry of the same decision is one event.
 */
export function decideAnswerOnboarding(
  userId: string,
  user: UserSnapshot | null,
  answers: OnboardingAnswersValue,
  life: number,
  lastSeq: number,
  at: Date,
): UserDecision<EventDraft> {
  const d = decideOnboarding(user, answers, perLife(life, 'ingress', 'ai-friend', userId));
  if (d.kind !== 'append') return d;
  const e = d.events[0]!;
  if (e.type !== 'OnboardingAnswered') return { kind: 'noop' };
  const value = {
    answers: {
      preferredName: answers.preferred_name,
      ageBand: answers.age_band,
      countryOrRegion: answers.country_or_region,
      occupationCategory: answers.occupation_category,
      clientTimezone: answers.client_timezone,
      proactiveMessagesEnabled: answers.proactive_messages_enabled,
      suppressedTopics: answers.suppressed_topics,
    },
    aiFriendId: e.aiFriendId,
  };
  const id = deriveId('ingress', 'onboarding', userId, lastSeq);
  return { kind: 'append', events: [draft(Events.OnboardingAnswered, value, { id, userId, occurredAt: at, correlationId: id })] };
}
