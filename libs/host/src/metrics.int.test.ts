import { randomUUID } from 'node:crypto';
import { Controller, Get, Inject, Param, Post } from '@nestjs/common';
import { cleanupNamespace, databaseUrl, dropSchemas, natsUrl, testNamespace, waitFor } from '@hearth/testing';
import { ApiHttpException, runHearth, type HearthProcess, type ServiceDefinition } from './index.js';

const KNOWN = Symbol('KNOWN');

@Controller('toy/items')
class ItemsController {
  constructor(@Inject(KNOWN) private readonly known: Set<string>) {}

  @Get(':id')
  get(@Param('id') id: string): { id: string } {
    if (!this.known.has(id)) throw new ApiHttpException(404, 'ITEM_NOT_FOUND', `no item ${id}`);
    return { id };
  }

  @Post(':id/fail')
  fail(): never {
    throw new Error('unexpected');
  }
}

function itemsService(known: Set<string>): ServiceDefinition {
  return {
    name: 'memory',
    migrations: {},
    projections: [],
    async create() {
      return {
        start: async () => [],
        http: { controllers: [ItemsController], providers: [{ provide: KNOWN, useValue: known }] },
      };
    },
  };
}

/** Sample lines of one metric (`name{...} value`). */
function samples(text: string, name: string): string[] {
  return text.split('\n').filter((l) => l.startsWith(`${name}{`));
}

describe('/metrics of a running host', () => {
  const namespace = testNamespace('t_hmetrics');
  const known = new Set([randomUUID()]);
  let dbUrl: string;
  let hearth: HearthProcess | undefined;

  beforeAll(async () => {
    dbUrl = await databaseUrl();
    hearth = await runHearth({
      services: [itemsService(known)],
      env: { HEARTH_ENV: 'test', HEARTH_NAMESPACE: namespace, NATS_URL: await natsUrl(), DATABASE_URL: dbUrl, LOG_LEVEL: process.env.LOG_LEVEL ?? 'fatal' },
      port: 0,
    });
  });

  afterAll(async () => {
    await hearth?.stop();
    await cleanupNamespace(await natsUrl(), namespace);
    await dropSchemas(dbUrl, namespace);
  });

  it('counts requests by route template and status code, with no id in any label', async () => {
    const [knownId] = known;
    const unknownId = randomUUID();
    const base = hearth!.url;

    // Given requests on a route with an id: found, not found, failed; and one no route matches
    expect((await fetch(`${base}/toy/items/${knownId}`)).status).toBe(200);
    expect((await fetch(`${base}/toy/items/${unknownId}`)).status).toBe(404);
    expect((await fetch(`${base}/toy/items/${unknownId}/fail`, { method: 'POST' })).status).toBe(500);
    expect((await fetch(`${base}/toy/nothing/${unknownId}`)).status).toBe(404);

    // When Prometheus scrapes
    const text = await (await fetch(`${base}/metrics`)).text();

    // Then
    const count = samples(text, 'http_server_request_duration_seconds_count');
    const route = (method: string, status: number, template: string) =>
      count.find((l) => l.includes(`http_request_method="${method}"`) && l.includes(`http_response_status_code="${status}"`) && l.includes(`http_route="${template}"`));
    expect(route('GET', 200, '/toy/items/:id')).toMatch(/ 1$/);
    expect(route('GET', 404, '/toy/items/:id')).toMatch(/ 1$/);
    expect(route('POST', 500, '/toy/items/:id/fail')).toMatch(/ 1$/);
    // The unmatched path is counted without a route label.
    expect(count.filter((l) => l.includes('http_response_status_code="404"') && !l.includes('http_route='))).toHaveLength(1);
    expect(route('GET', 404, '/toy/items/:id')).toContain('service_name="memory"');
    expect(text).not.toContain(knownId);
    expect(text).not.toContain(unknownId);
  });

  it('exports the process metrics and readiness', async () => {
    const text = await waitFor(
      async () => {
        const t = await (await fetch(`${hearth!.url}/metrics`)).text();
        return /^hearth_ready\{service="memory"[^}]*\} 1$/m.test(t) && t;
      },
      { what: 'hearth_ready to be 1' },
    );

    for (const name of ['process_cpu_time_seconds_total', 'process_memory_usage_bytes', 'v8js_memory_heap_used_bytes', 'nodejs_eventloop_utilization_ratio', 'v8js_resource_active']) {
      expect({ name, exported: samples(text, name).length > 0 }).toEqual({ name, exported: true });
    }
    expect(samples(text, 'process_memory_usage_bytes')[0]).toContain('service_name="memory"');
  });
});
