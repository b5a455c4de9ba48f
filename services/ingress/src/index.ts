import type { ServiceDefinition } from '@hearth/host';
import { startProjection, startReactor } from '@hearth/store';
import type { Kysely } from 'kysely';
import { migration as m0001 } from '../migrations/2026_11_22_0001_users_turns.js';
import { migration as m0002 } from '../migrations/2026_11_22_0002_persona_event_seq.js';
import { migration as m0003 } from '../migrations/2026_11_23_0003_controls.js';
import { migration as m0004 } from '../migrations/2026_11_23_0004_notification_idx.js';
import { createIngressApp } from './app/ingress-app.js';
import { createSuppressTopicsReactor } from './handlers/suppress-topics.js';
import { TurnWaiters } from './app/waiters.js';
import { createTokenVerifier, signDevToken } from './auth/tokens.js';
import { INGRESS, loadIngressConfig } from './config.js';
import type { IngressDb } from './db.js';
import { INGRESS_CONTROLLERS } from './http/controllers.js';
import type { IngressAuth } from './http/auth.js';
import { INGRESS_APP, INGRESS_AUTH } from './http/tokens.js';
import { Events } from '@hearth/events';
import { personasProjection } from './projections/personas.js';
import { turnsProjection } from './projections/turns.js';
import { usersProjection } from './projections/users.js';

/** Ingress: users, onboarding, the message log and the HTTP API (../shared/API.md). */
export const service: ServiceDefinition = {
  name: 'ingress',
  migrations: {
    '2026_11_22_0001_users_turns': m0001,
    '2026_11_22_0002_persona_event_seq': m0002,
    '2026_11_23_0003_controls': m0003,
    '2026_11_23_0004_notification_idx': m0004,
  },
  projections: [usersProjection, personasProjection, turnsProjection],
  async create(ctx) {
    const cfg = loadIngressConfig(ctx.environment);
    const db = ctx.db as Kysely<IngressDb>;
    const waiters = new TurnWaiters();
    const devMode = ctx.env !== 'production';
    const verify = createTokenVerifier({
      issuer: cfg.AUTH_ISSUER,
      audience: cfg.AUTH_AUDIENCE,
      jwksUrl: cfg.AUTH_JWKS_URL,
      devSecret: devMode ? cfg.DEV_AUTH_SECRET : undefined,
      clock: ctx.clock,
    });
    const auth: IngressAuth = {
      verify,
      devMode,
      now: () => ctx.clock.now(),
      advanceClock: ctx.advanceClock,
      signDevToken: (p) =>
        signDevToken(p, {
          issuer: cfg.AUTH_ISSUER,
          audience: cfg.AUTH_AUDIENCE,
          devSecret: cfg.DEV_AUTH_SECRET,
          clock: ctx.clock,
          ttlSeconds: INGRESS.devTokenTtlSeconds,
        }),
    };
    const app = createIngressApp({ bus: ctx.bus, db, clock: ctx.clock, logger: ctx.logger, waiters, turnTimeoutMs: cfg.TURN_TIMEOUT_MS });
    ctx.logger.info({ auth: cfg.AUTH_JWKS_URL ? 'jwks' : 'dev-hs256', issuer: cfg.AUTH_ISSUER }, 'ingress auth configured');
    return {
      http: {
        controllers: INGRESS_CONTROLLERS,
        providers: [
          { provide: INGRESS_APP, useValue: app },
          { provide: INGRESS_AUTH, useValue: auth },
        ],
      },
      async start() {
        return [
          ...(await startProjection(ctx.bus, db, 'ingress', usersProjection)),
          ...(await startProjection(ctx.bus, db, 'ingress', personasProjection)),
          ...(await startProjection(ctx.bus, db, 'ingress', turnsProjection, {
            onApplied: (events) =>
              waiters.notify(
                events.filter((e) => e.type === Events.TurnCompleted.name || e.type === Events.ChatRefused.name).map((e) => turnMessageId(e.payload, e.type)),
              ),
          })),
          ...(await startReactor(ctx.bus, db, 'ingress', createSuppressTopicsReactor({ bus: ctx.bus, db, logger: ctx.logger }))),
        ];
      },
    };
  },
};

function turnMessageId(payload: Uint8Array, type: string): string {
  return type === Events.TurnCompleted.name ? Events.TurnCompleted.decode(payload).messageId : Events.ChatRefused.decode(payload).messageId;
}
