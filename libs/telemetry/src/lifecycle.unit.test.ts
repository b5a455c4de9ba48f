import { metrics, trace } from '@opentelemetry/api';
import { counter, initTelemetry, withSpan } from './index.js';

describe('initTelemetry lifecycle', () => {
  it('unregisters the globals when the last handle shuts down, and starts afresh after', async () => {
    const requests = counter('test_requests', 'Requests');
    const first = initTelemetry({ service: 'ingress' });
    requests.add(5);
    await first.shutdown();
    await first.shutdown();

    expect(await withSpan('after shutdown', async (span) => span.isRecording())).toBe(false);

    const again = initTelemetry({ service: 'ingress' });
    requests.add(1);
    const text = await again.metricsText();
    const recording = await withSpan('after restart', async (span) => span.isRecording());
    await again.shutdown();

    expect(text).toMatch(/^test_requests_total\{[^}]*\} 1$/m);
    expect(recording).toBe(true);
    expect(metrics.getMeterProvider()).not.toBeUndefined();
    expect(trace.getTracerProvider()).not.toBeUndefined();
  });

  it('keeps the providers until every service has released its handle', async () => {
    const a = initTelemetry({ service: 'router' });
    const b = initTelemetry({ service: 'router' });

    await a.shutdown();
    const stillRecording = await withSpan('one handle left', async (span) => span.isRecording());
    expect(b.services()).toEqual(['router']);
    await b.shutdown();

    expect(stillRecording).toBe(true);
    expect(await withSpan('none left', async (span) => span.isRecording())).toBe(false);
  });
});
