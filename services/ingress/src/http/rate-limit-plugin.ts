import fastifyRateLimit from '@fastify/rate-limit';
import type { NatsConnection } from '@nats-io/transport-node';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { anyLimit, isExempt, limitPlan, limitsFor, pathOf, rateLimitedBody, type Limit, type LimitPlan, type RateLimitSettings } from './rate-limit.js';
import { KvRateLimitStore, openRateLimitBucket, type KvRateLimitStoreOptions } from './rate-limit-store.js';

export interface RateLimitHookOptions {
  plan: LimitPlan;
  /** The counters (shared across replicas through NATS KV). */
  store: KvRateLimitStoreOptions;
  /** The verified user of a request, or null when it has no valid token. */
  userOf(req: FastifyRequest): Promise<string | null>;
  logger: { warn(obj: object, msg: string): void };
}

/**
 * Registers @fastify/rate-limit on a Fastify instance and one `onRequest` hook
 * that counts each request against the limits of API.md: chat messages and
 * other requests per verified user, requests without a valid token per client
 * address. Over a limit the answer is 429 with `Retry-After` and the API's error
 * body; when the counters cannot be reached the request passes (fail open).
 * Call it before the instance is ready (its routes take the hook then), and do
 * not await the instance here: loading plugins early would fix each route's
 * error handler before Nest sets its own.
 */
export function registerRateLimits(app: FastifyInstance, opts: RateLimitHookOptions): void {
  const { plan } = opts;
  if (!anyLimit(plan)) return;
  const storeOptions = opts.store;
  void app.register(fastifyRateLimit, {
    global: false,
    // A store that fails lets the request through (the store logs it).
    skipOnError: true,
    store: class extends KvRateLimitStore {
      constructor() {
        super(storeOptions);
      }
    },
  });
  const keys = new WeakMap<object, string>();
  let limiters: Map<Limit, ReturnType<FastifyInstance['createRateLimit']>> | undefined;
  // The plugin's decorator exists once the instance has loaded it: build the limiters on first use.
  const limiterOf = (limit: Limit) => {
    limiters ??= new Map(
      [...plan.chat, ...plan.user, ...plan.anon].map((l) => [
        l,
        app.createRateLimit({ max: l.max, timeWindow: l.windowMs, keyGenerator: (req) => `${l.name}:${keys.get(req.raw) ?? ''}` }),
      ]),
    );
    return limiters.get(limit)!;
  };

  app.addHook('onRequest', async (req, reply) => {
    const path = pathOf(req.url);
    if (isExempt(path)) return;
    let retryAfter: number | null = null;
    try {
      const userId = await opts.userOf(req);
      const { limits, key } = limitsFor(plan, { method: req.method, path, userId, address: req.ip });
      keys.set(req.raw, key);
      for (const limit of limits) {
        const r = await limiterOf(limit)(req);
        if (!r.isAllowed && r.isExceeded) {
          retryAfter = Math.max(1, r.ttlInSeconds);
          break;
        }
      }
    } catch (err) {
      opts.logger.warn({ err }, 'rate limiting failed: letting the request through');
      return;
    }
    if (retryAfter === null) return;
    return reply.code(429).header('retry-after', String(retryAfter)).send(rateLimitedBody(retryAfter));
  });
}

/** What ingress needs to limit its HTTP API. */
export interface IngressRateLimits {
  settings: RateLimitSettings;
  nc: NatsConnection;
  namespace: string;
  userOf(req: FastifyRequest): Promise<string | null>;
  logger: { warn(obj: object, msg: string): void };
}

/** Nest token of the provider that installs the rate limits. */
export const INGRESS_RATE_LIMITS = Symbol.for('hearth.ingress.rate-limits');

/**
 * A Nest provider that installs the rate limits on the Fastify instance the
 * host serves ingress with: Nest initialises modules after routes are declared
 * and before Fastify is ready, which is when a root `onRequest` hook still
 * applies to every route.
 */
export function rateLimitProvider(limits: IngressRateLimits) {
  return {
    provide: INGRESS_RATE_LIMITS,
    inject: [HttpAdapterHost],
    useFactory: (host: HttpAdapterHost) => ({
      async onModuleInit(): Promise<void> {
        const plan = limitPlan(limits.settings);
        if (!anyLimit(plan)) return;
        const kv = await openRateLimitBucket(limits.nc, limits.namespace);
        registerRateLimits(host.httpAdapter.getInstance<FastifyInstance>(), {
          plan,
          store: { kv, logger: limits.logger },
          userOf: limits.userOf,
          logger: limits.logger,
        });
      },
    }),
  };
}
