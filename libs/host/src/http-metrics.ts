import type { FastifyInstance } from 'fastify';
import { recordHttpServerRequest } from '@hearth/telemetry';

/**
 * Records every answered request of `fastify` on `http.server.request.duration`,
 * labelled with the matched route template (Fastify's `routeOptions.url`), never the
 * raw path. A Fastify hook rather than OpenTelemetry's http/fastify instrumentations:
 * those patch modules through require hooks, or under ESM a loader given with
 * `--import`, which our start commands and tests do not have. Must be called before
 * the app is ready. A request whose client went away before the answer is not counted
 * (Fastify runs no onResponse hook for it).
 */
export function instrumentHttpServer(fastify: FastifyInstance): void {
  fastify.addHook('onResponse', (request, reply, done) => {
    recordHttpServerRequest({
      method: request.method,
      route: request.routeOptions.url,
      statusCode: reply.statusCode,
      seconds: reply.elapsedTime / 1000,
    });
    done();
  });
}
