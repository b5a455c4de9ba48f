import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { initTelemetry, withSpan } from './index.js';

describe('initTelemetry with an OTLP endpoint', () => {
  it('posts spans to <endpoint>/v1/traces, flushed at shutdown', async () => {
    const received: Array<{ url: string | undefined; body: Buffer }> = [];
    const server = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ url: req.url, body: Buffer.concat(chunks) });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;

    try {
      const telemetry = initTelemetry({ service: 'otlp-test', otlpEndpoint: `http://127.0.0.1:${port}/` });
      const traceId = await withSpan('exported span', async (span) => span.spanContext().traceId);
      await telemetry.shutdown();

      expect(received.map((r) => r.url)).toEqual(['/v1/traces']);
      expect(received[0]?.body.includes(Buffer.from('exported span'))).toBe(true);
      expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
