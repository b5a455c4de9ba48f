import type { Bus, StoredEvent } from '@hearth/bus';
import { requirePosition, waitForPosition } from '@hearth/store';
import type { Kysely } from 'kysely';
import type { IngressDb } from '../db.js';
import { usersProjection } from '../projections/users.js';
import type { OnboardingAnswersValue } from '../users/answers.js';
import type { UserSnapshot, UserState } from '../users/user.js';
import { IngressError } from './errors.js';

/** GET /v1/me (API.md). */
export interface Profile {
  user_id: string;
  user_state: UserState;
  answers: OnboardingAnswersValue | null;
  ai_friend_id: string | null;
  persona: { template_id: string; core_archetype: string; friend_energy: string; stable_style_params: unknown } | null;
}

export interface UserReadsDeps {
  bus: Bus;
  db: Kysely<IngressDb>;
}

export type UserReads = ReturnType<typeof createUserReads>;

/** Ingress's own read of its users, shared by the use cases: the users projection, read your writes. */
export function createUserReads(deps: UserReadsDeps) {
  const { bus, db } = deps;

  async function snapshot(userId: string): Promise<UserSnapshot | null> {
    const row = await db.selectFrom('users').selectAll().where('user_id', '=', userId).executeTakeFirst();
    if (!row) return null;
    const persona = await db.selectFrom('personas').select('user_id').where('user_id', '=', userId).executeTakeFirst();
    return {
      userId,
      state: row.user_state as UserState,
      answers: (row.answers ?? null) as OnboardingAnswersValue | null,
      aiFriendId: row.ai_friend_id,
      hasPersona: persona !== undefined,
    };
  }

  return {
    /** The user's row, or 404: for the caller's own requests. */
    async existingUser(userId: string) {
      const row = await db.selectFrom('users').select(['user_id', 'controls']).where('user_id', '=', userId).executeTakeFirst();
      if (!row) throw new IngressError(404, 'USER_NOT_FOUND', 'no such user: create it with POST /v1/me');
      return row;
    },

    /** 404 unless the user exists (an admin naming a user). */
    async assertKnownUser(userId: string): Promise<void> {
      const user = await db.selectFrom('users').select('user_id').where('user_id', '=', userId).executeTakeFirst();
      if (!user) throw new IngressError(404, 'USER_NOT_FOUND', 'no such user');
    },

    /**
     * Reads the user as of the last event on its chain (read-your-writes); a
     * ProjectionBehindError (503 at the edge) when the projection is behind.
     */
    async snapshotAt(userId: string, last: StoredEvent | null): Promise<UserSnapshot | null> {
      await requirePosition(db, usersProjection.name, last);
      return snapshot(userId);
    },

    /** A ProjectionBehindError (503 at the edge) unless these projections hold the user's chain up to `last` (read-your-writes). */
    async requireCaughtUp(last: StoredEvent | null, projections: string[]): Promise<void> {
      for (const p of projections) await requirePosition(db, p, last);
    },

    /** Waits until the users projection holds what this request appended (seq 0: nothing). */
    async afterAppend(userId: string, seq: number): Promise<void> {
      const subject = bus.topology.subject('ingress', userId);
      if (seq > 0) await waitForPosition(db, usersProjection.name, subject, seq);
    },

    async profile(userId: string): Promise<Profile> {
      const row = await db.selectFrom('users').selectAll().where('user_id', '=', userId).executeTakeFirst();
      if (!row) throw new IngressError(404, 'USER_NOT_FOUND', 'no such user: create it with POST /v1/me');
      const persona = await db.selectFrom('personas').selectAll().where('user_id', '=', userId).executeTakeFirst();
      return {
        user_id: row.user_id,
        user_state: row.user_state as UserState,
        answers: (row.answers ?? null) as OnboardingAnswersValue | null,
        ai_friend_id: row.ai_friend_id,
        persona: persona
          ? {
              template_id: persona.template_id,
              core_archetype: persona.core_archetype,
              friend_energy: persona.friend_energy,
              stable_style_params: persona.stable_style_params,
            }
          : null,
      };
    },

    /** The user's data key state, for the life of the user (see onboarding-decision.ts). */
    async keyState(userId: string) {
      return (await bus.keyring?.state(userId)) ?? null;
    },
  };
}
