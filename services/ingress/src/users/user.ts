import { REQUIRED_ANSWERS, type OnboardingAnswersValue } from './answers.js';

export type UserState = 'CREATED' | 'ONBOARDING' | 'ACTIVE';

/** What ingress knows of one user when deciding (from its users projection). */
export interface UserSnapshot {
  userId: string;
  state: UserState;
  answers: OnboardingAnswersValue | null;
  aiFriendId: string | null;
  hasPersona: boolean;
}

/** A decision of the user aggregate: events to append, or a refusal. */
export type UserDecision<E> =
  | { kind: 'append'; events: E[] }
  | { kind: 'noop' }
  | { kind: 'reject'; status: 404 | 409; code: string; message: string };

export type UserEvent =
  | { type: 'UserCreated' }
  | { type: 'OnboardingAnswered'; answers: OnboardingAnswersValue; aiFriendId: string };

/** POST /v1/me: create once; again is a no-op. */
export function decideCreateUser(user: UserSnapshot | null): UserDecision<UserEvent> {
  return user ? { kind: 'noop' } : { kind: 'append', events: [{ type: 'UserCreated' }] };
}

/**
 * PUT /v1/me/onboarding: CREATED or ONBOARDING users may answer (again);
 * an ACTIVE user has finished onboarding and changes controls instead.
 */
export function decideOnboarding(
  user: UserSnapshot | null,
  answers: OnboardingAnswersValue,
  aiFriendId: string,
): UserDecision<UserEvent> {
  if (!user) return { kind: 'reject', status: 404, code: 'USER_NOT_FOUND', message: 'create the user first: POST /v1/me' };
  if (user.state === 'ACTIVE') {
    return { kind: 'reject', status: 409, code: 'ONBOARDING_COMPLETED', message: 'onboarding is complete; change settings with PATCH /v1/me/controls' };
  }
  if (user.state === 'ONBOARDING' && sameAnswers(user.answers, answers)) return { kind: 'noop' };
  return { kind: 'append', events: [{ type: 'OnboardingAnswered', answers, aiFriendId: user.aiFriendId ?? aiFriendId }] };
}

export interface TurnCommand {
  messageId: string;
  conversationId: string;
  text: string;
  clientTimezone?: string;
  clientLocale?: string;
}

export interface TurnDecision {
  userState: UserState;
  /** The first message of an onboarding user activates it in the same event (§4.1.2). */
  activatesUser: boolean;
  /** For an ONBOARDING user it could not activate: what the re-check found missing. */
  missingOnboarding: string[];
  clientTimezone: string;
}

/** §4.1.2 steps 2–3: the required answers and the persona assignment. */
export function missingForActivation(user: UserSnapshot): string[] {
  const missing: string[] = [];
  for (const field of REQUIRED_ANSWERS) {
    const v = user.answers?.[field];
    if (v === undefined || v === null || v === '') missing.push(field);
  }
  if (!user.hasPersona) missing.push('persona');
  return missing;
}

/**
 * A chat message: records the user's state at receipt. An ONBOARDING user
 * with its answers and persona in place becomes ACTIVE by this very event;
 * without them it stays ONBOARDING and the event names what is missing, so the
 * router answers with ONBOARDING_CHAT describing it and no friend reply
 * (turn-pipeline §4.1.2 steps 4–5).
 */
export function decideTurn(user: UserSnapshot | null, cmd: TurnCommand): UserDecision<TurnDecision> {
  if (!user) return { kind: 'reject', status: 404, code: 'USER_NOT_FOUND', message: 'create the user first: POST /v1/me' };
  const missingOnboarding = user.state === 'ONBOARDING' ? missingForActivation(user) : [];
  const activatesUser = user.state === 'ONBOARDING' && missingOnboarding.length === 0;
  return {
    kind: 'append',
    events: [
      {
        userState: user.state,
        activatesUser,
        missingOnboarding,
        clientTimezone: cmd.clientTimezone ?? user.answers?.client_timezone ?? '',
      },
    ],
  };
}

/** The state after a turn was received. */
export function stateAfterTurn(state: UserState, activatesUser: boolean): UserState {
  return activatesUser ? 'ACTIVE' : state;
}

function sameAnswers(a: OnboardingAnswersValue | null, b: OnboardingAnswersValue): boolean {
  return a !== null && JSON.stringify(a) === JSON.stringify(b);
}
