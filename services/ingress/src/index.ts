import type { ServiceDefinition } from '@hearth/host';
import { startProjection, startReactor } from '@hearth/store';
import { listDeadLetters, watchDeadLetters } from '@hearth/bus';
import type { Kysely } from 'kysely';
import { migration as m0001 } from '../migrations/2026_11_22_0001_users_turns.js';
import { migration as m0002 } from '../migrations/2026_11_22_0002_persona_event_seq.js';
import { migration as m0003 } from '../migrations/2026_11_23_0003_controls.js';
import { migration as m0004 } from '../migrations/2026_11_23_0004_notification_idx.js';
import { migration as m0005 } from '../migrations/2026_11_24_0005_app_opens.js';
import { migration as m0006 } from '../migrations/2026_11_25_0006_erasures.js';
import { createIngressApp } from './app/ingress-app.js';
import { createSuppressTopicsReactor } from './handlers/suppress-topics.js';
import { TurnWaiters } from './app/waiters.js';
import { FailedTurns } from './app/failed-turns.js';
import { createTokenVerifier, signDevToken } from './auth/tokens.js';
import { INGRESS, loadIngressConfig } from './config.js';
import type { IngressDb } from './db.js';
import { INGRESS_CONTROLLERS } from './http/controllers.js';
import { verifiedUserOf, verifyHeader, type IngressAuth } from './http/auth.js';
import { rateLimitProvider } from './http/rate-limit-plugin.js';
import { INGRESS_APP, INGRESS_AUTH } from './http/tokens.js';
import { Events } from '@hearth/events';
import { appOpensProjection } from './projections/app-opens.js';
import { erasuresProjection } from './projections/erasures.js';
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
    '2026_11_24_0005_app_opens': m0005,
    '2026_11_25_0006_erasures': m0006,
  },
  projections: [usersProjection, personasProjection, turnsProjection, appOpensProjection, erasuresProjection],
  async create(ctx) {
    const cfg = loadIngressConfig(ctx.environment);
    const db = ctx.db as Kysely<IngressDb>;
    const waiters = new TurnWaiters();
    const failedTurns = new FailedTurns();
    let stopWatching = (): void => undefined;
    const devMode = ctx.env !== 'production';
    const verify = createTokenVerifier({
      issuer: cfg.AUTH_ISSUER,
      audience: cfg.AUTH_AUDIENCE,
      clientId: cfg.AUTH_CLIENT_ID,
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
    const app = createIngressApp({ bus: ctx.bus, db, clock: ctx.clock, logger: ctx.logger, waiters, failedTurns, turnTimeoutMs: cfg.TURN_TIMEOUT_MS });
    ctx.logger.info({ auth: cfg.AUTH_JWKS_URL ? 'jwks' : 'dev-hs256', issuer: cfg.AUTH_ISSUER }, 'ingress auth configured');
    return {
      http: {
        controllers: INGRESS_CONTROLLERS,
        providers: [
          { provide: INGRESS_APP, useValue: app },
          { provide: INGRESS_AUTH, useValue: auth },
          rateLimitProvider({
            settings: {
              chatPerMinute: cfg.RATE_LIMIT_CHAT_PER_MINUTE,
              chatBurst: cfg.RATE_LIMIT_CHAT_BURST,
              perMinute: cfg.RATE_LIMIT_PER_MINUTE,
              anonPerMinute: cfg.RATE_LIMIT_ANON_PER_MINUTE,
            },
            nc: ctx.bus.nc,
            namespace: cfg.HEARTH_NAMESPACE,
            userOf: (req) => verifiedUserOf(auth, req),
            logger: ctx.logger,
          }),
        ],
      },
      async isOperator(authorization) {
        return (await verifyHeader(auth, authorization).catch(() => undefined))?.roles.includes('admin') ?? false;
      },
      async start() {
        // Replies are applied by whichever replica's consumer got the event: every
        // replica hears of them on core NATS, and wakes its waiting requests.
        const turnsApplied = ctx.bus.topology.control('ingress-turns-applied');
        const turnsSub = ctx.bus.nc.subscribe(turnsApplied, {
          callback: (err, m) => {
            if (!err) waiters.notify(m.json<string[]>());
          },
        });
        // Turns a quarantine stopped: known from the dead-letter stream, then followed live.
        for (const entry of await listDeadLetters(ctx.bus)) failedTurns.add(entry);
        const unwatch = watchDeadLetters(ctx.bus, {
          onDeadLetter: (entry) => {
            failedTurns.add(entry);
            if (entry.correlationId) waiters.notify([entry.correlationId]);
          },
          onRedriven: (consumer, stream, seq) => {
            failedTurns.lift(consumer, stream, seq);
          },
        });
        stopWatching = () => {
          turnsSub.unsubscribe();
          unwatch();
        };
        return [
          ...(await startProjection(ctx.bus, db, 'ingress', usersProjection)),
          ...(await startProjection(ctx.bus, db, 'ingress', personasProjection)),
          ...(await startProjection(ctx.bus, db, 'ingress', appOpensProjection)),
          ...(await startProjection(ctx.bus, db, 'ingress', erasuresProjection)),
          ...(await startProjection(ctx.bus, db, 'ingress', turnsProjection, {
            onApplied: (events) => {
              const done = events
                .filter((e) => e.type === Events.TurnCompleted.name || e.type === Events.ChatRefused.name)
                .map((e) => turnMessageId(e.payload, e.type));
              if (done.length === 0) return;
              waiters.notify(done);
              ctx.bus.nc.publish(turnsApplied, JSON.stringify(done));
            },
          })),
          ...(await startReactor(ctx.bus, db, 'ingress', createSuppressTopicsReactor({ bus: ctx.bus, db, logger: ctx.logger }))),
        ];
      },
      async stop() {
        stopWatching();
      },
    };
  },
};

function turnMessageId(payload: Uint8Array, type: string): string {
  return type === Events.TurnCompleted.name ? Events.TurnCompleted.decode(payload).messageId : Events.ChatRefused.decode(payload).messageId;
}
