import { waitFor } from '@hearth/testing';
import { initTelemetry, recordHttpServerRequest, type Telemetry } from './index.js';

/** Lines of one metric family (`name` or `name_bucket` … with labels). */
function samples(text: string, name: string): string[] {
  return text.split('\n').filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));
}

describe('process metrics', () => {
  let telemetry: Telemetry;

  beforeAll(() => {
    telemetry = initTelemetry({ service: 'runtime-test' });
  });

  afterAll(async () => {
    await telemetry.shutdown();
  });

  it('exports event-loop delay and utilization, GC by kind, heap, handles, CPU and RSS, with unit-suffixed names', async () => {
    // The delay percentiles need a few samples of the loop, GC a collection: allocate until both show.
    const text = await waitFor(
      async () => {
        Array.from({ length: 50_000 }, (_, i) => ({ i }));
        const t = await telemetry.metricsText();
        return /^v8js_gc_duration_seconds_count\{/m.test(t) && /^nodejs_eventloop_delay_p99_seconds\{/m.test(t) && t;
      },
      { what: 'a GC and event-loop delay samples on /metrics' },
    );

    for (const name of [
      'nodejs_eventloop_delay_p50_seconds',
      'nodejs_eventloop_delay_p99_seconds',
      'nodejs_eventloop_utilization_ratio',
      'nodejs_eventloop_time_seconds_total',
      'v8js_memory_heap_used_bytes',
      'v8js_memory_heap_space_size_bytes',
      'v8js_resource_active',
      'process_memory_usage_bytes',
    ]) {
      expect({ name, found: samples(text, name).length > 0 }).toEqual({ name, found: true });
    }
    expect(text).toMatch(/^v8js_gc_duration_seconds_bucket\{v8js_gc_type="(minor|major|incremental|weakcb)"[^}]*le="\+Inf"[^}]*\} \d+$/m);
    expect(text).toMatch(/^v8js_memory_heap_used_bytes\{v8js_heap_space_name="old_space"[^}]*\} [1-9]\d*$/m);
    expect(text).toMatch(/^process_cpu_time_seconds_total\{cpu_mode="user"[^}]*\} [\d.e+-]+$/m);
    expect(text).toMatch(/^process_memory_usage_bytes\{[^}]*\} [1-9]\d*$/m);
    // Every process metric names its service, whatever the scrape adds.
    expect(samples(text, 'process_memory_usage_bytes')[0]).toContain('service_name="runtime-test"');
    // No name left without its unit.
    expect(text).not.toMatch(/^(nodejs_eventloop_delay_p99|v8js_gc_duration_count|v8js_memory_heap_used)[{ ]/m);
  });

  it('names the HTTP histogram http_server_request_duration_seconds, by method, route template and status', async () => {
    recordHttpServerRequest({ method: 'get', route: '/v1/users/:id', statusCode: 404, seconds: 0.02 });
    recordHttpServerRequest({ method: 'PROPFIND', route: undefined, statusCode: 404, seconds: 0.001 });

    const text = await telemetry.metricsText();

    expect(text).toMatch(
      /^http_server_request_duration_seconds_count\{http_request_method="GET",http_response_status_code="404",http_route="\/v1\/users\/:id"[^}]*\} 1$/m,
    );
    expect(text).toMatch(/^http_server_request_duration_seconds_bucket\{[^}]*http_route="\/v1\/users\/:id"[^}]*le="0\.025"[^}]*\} 1$/m);
    // An unknown method is folded, and a request no route matched has no route label.
    const unmatched = samples(text, 'http_server_request_duration_seconds_count').find((l) => l.includes('"_OTHER"'));
    expect(unmatched).toBeDefined();
    expect(unmatched).not.toContain('http_route');
  });
});
