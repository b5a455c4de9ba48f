import { appendDecided, type Bus } from '@hearth/bus';
import type { Clock } from '@hearth/clock';
import { pollUntil } from '@hearth/store';
import { INGRESS } from '../config.js';
import type { OnboardingAnswersValue } from '../users/answers.js';
import { IngressError } from './errors.js';
import { decideAnswerOnboarding, decideCreateMe, lifeOf } from './onboarding-decision.js';
import type { Profile, UserReads } from './user-reads.js';

export interface OnboardingDeps {
  bus: Bus;
  clock: Clock;
  users: UserReads;
}

/** A user and their onboarding: POST /v1/me, GET /v1/me, PUT /v1/me/onboarding. */
export function createOnboarding(deps: OnboardingDeps) {
  const { bus, clock, users } = deps;

  return {
    profile: (userId: string): Promise<Profile> => users.profile(userId),

    async createMe(userId: string): Promise<Profile> {
      const results = await appendDecided(bus, 'ingress', userId, async (last) => {
        const d = decideCreateMe(userId, await users.snapshotAt(userId, last), lifeOf(await users.keyState(userId)), clock.now());
        return d.kind === 'append' ? d.events : [];
      });
      await users.afterAppend(userId, results.at(-1)?.seq ?? 0);
      return users.profile(userId);
    },

    async answerOnboarding(userId: string, answers: OnboardingAnswersValue): Promise<Profile> {
      const results = await appendDecided(bus, 'ingress', userId, async (last) => {
        const user = await users.snapshotAt(userId, last);
        const d = decideAnswerOnboarding(userId, user, answers, lifeOf(await users.keyState(userId)), last?.seq ?? 0, clock.now());
        if (d.kind === 'reject') throw new IngressError(d.status, d.code, d.message);
        return d.kind === 'append' ? d.events : [];
      });
      await users.afterAppend(userId, results.at(-1)?.seq ?? 0);
      // The persona is the orchestrator's answer to these events; show it when it is there.
      let p: Profile | undefined;
      await pollUntil(async () => Boolean((p = await users.profile(userId)).persona), { timeoutMs: INGRESS.personaWaitMs, intervalMs: 20 });
      return p!;
    },
  };
}
