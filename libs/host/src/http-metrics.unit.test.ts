import { fastify, type FastifyInstance } from 'fastify';
import { initTelemetry, type Telemetry } from '@hearth/telemetry';
import { instrumentHttpServer } from './http-metrics.js';

const USER_ID = '0b6f3c1e-7d4a-4f7e-9a52-3c1d2e4f5a6b';

/** `count` sample lines of the HTTP histogram. */
function counts(text: string): string[] {
  return text.split('\n').filter((l) => l.startsWith('http_server_request_duration_seconds_count{'));
}

describe('instrumentHttpServer', () => {
  let telemetry: Telemetry;
  let app: FastifyInstance;

  beforeAll(async () => {
    telemetry = initTelemetry({ service: 'http-metrics-test' });
    app = fastify();
    app.get('/v1/users/:id', async (req) => ({ id: (req.params as { id: string }).id }));
    app.post('/v1/users/:id/fail', async () => {
      throw new Error('boom');
    });
    instrumentHttpServer(app);
    await app.ready();
  });

  afterAll(async () => {
    await app.close();
    await telemetry.shutdown();
  });

  it('counts each request by method, route template and status code, never by raw path', async () => {
    // Given three answered requests on routes with a user id in the path, and one on no route
    expect((await app.inject({ method: 'GET', url: `/v1/users/${USER_ID}` })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: `/v1/users/${USER_ID}?x=1` })).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: `/v1/users/${USER_ID}/fail` })).statusCode).toBe(500);
    expect((await app.inject({ method: 'GET', url: `/v1/nothing/${USER_ID}` })).statusCode).toBe(404);

    // When Prometheus scrapes
    const text = await telemetry.metricsText();

    // Then each route template has its count and status, and no id reached a label
    expect(counts(text)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/\{http_request_method="GET",http_response_status_code="200",http_route="\/v1\/users\/:id",[^}]*\} 2$/),
        expect.stringMatching(/\{http_request_method="POST",http_response_status_code="500",http_route="\/v1\/users\/:id\/fail",[^}]*\} 1$/),
        expect.stringMatching(/\{http_request_method="GET",http_response_status_code="404",otel_scope_name[^}]*\} 1$/),
      ]),
    );
    expect(counts(text)).toHaveLength(3);
    expect(text).not.toContain(USER_ID);
    expect(text).toMatch(/^http_server_request_duration_seconds_bucket\{[^}]*http_route="\/v1\/users\/:id"[^}]*le="\+Inf"[^}]*\} 2$/m);
  });
});
