import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLocalEmbedder } from './embeddings.js';

/**
 * What the stub answers: a completion with this content, an HTTP error (with optional
 * headers such as `retry-after-ms`), or a completion after a delay.
 */
export type StubReply =
  | { content: string }
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | { delayMs: number; content: string };

/** One request the stub received. */
export interface StubRequest {
  path: string;
  /** The parsed JSON body as the client sent it (`null` when there was none). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped wire JSON, read freely by tests
  body: any;
  headers: IncomingHttpHeaders;
}

export interface StubHandlerRequest {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped wire JSON, read freely by tests
  body: any;
  path: string;
  /** 1-based number of this request among all the stub received. */
  count: number;
}

export type StubHandler = (req: StubHandlerRequest) => StubReply | Promise<StubReply>;

export interface LlmStub {
  /** Base URL to configure as `LLM_BASE_URL`, ending in `/v1`. */
  url: string;
  /** Every request received, in order (failed and timed-out ones included). */
  requests: StubRequest[];
  setHandler(handler: StubHandler): void;
  /** Stops the server, dropping open keep-alive connections and pending delays. */
  close(): Promise<void>;
}

const CHAT_COMPLETIONS = '/v1/chat/completions';
const EMBEDDINGS = '/v1/embeddings';
const stubEmbedder = createLocalEmbedder({ dimensions: 32, model: 'stub-embedding' });
const DEFAULT_HANDLER: StubHandler = () => ({ content: '{"text":"stub reply"}' });

/**
 * A local OpenAI-compatible server on 127.0.0.1 (OS-picked port) for tests: it answers
 * `POST /v1/chat/completions` from `handler`, `POST /v1/embeddings` with
 * deterministic 32-dimension vectors, and records every request.
 * @param handler @default a reply of `{"text":"stub reply"}`
 */
export async function startLlmStub(handler: StubHandler = DEFAULT_HANDLER): Promise<LlmStub> {
  let current = handler;
  const requests: StubRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();

  const server = createServer((req, res) => {
    void serve(req, res).catch((err: unknown) => {
      sendJson(res, 500, errorBody(`stub failure: ${err instanceof Error ? err.message : String(err)}`));
    });
  });

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://stub').pathname;
    const raw = await readBody(req);
    let body: unknown = null;
    if (raw !== '') {
      try {
        body = JSON.parse(raw);
      } catch {
        requests.push({ path, body: raw, headers: req.headers });
        sendJson(res, 400, errorBody('request body is not JSON'));
        return;
      }
    }
    requests.push({ path, body, headers: req.headers });

    if (req.method === 'POST' && path === EMBEDDINGS) {
      // Deterministic vectors, so tests of an embeddings endpoint need no real model.
      const input: unknown = isRecord(body) ? body.input : undefined;
      const texts = Array.isArray(input) ? input.map(String) : [typeof input === 'string' ? input : ''];
      const vectors = await stubEmbedder.embed(texts);
      sendJson(res, 200, {
        object: 'list',
        model: isRecord(body) && typeof body.model === 'string' ? body.model : 'stub',
        data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })),
        usage: { prompt_tokens: 0, total_tokens: 0 },
      });
      return;
    }
    if (req.method !== 'POST' || path !== CHAT_COMPLETIONS) {
      sendJson(res, 404, errorBody(`no route for ${req.method ?? '?'} ${path}`, 'not_found'));
      return;
    }

    const reply = await current({ body, path, count: requests.length });
    if ('status' in reply) {
      sendJson(res, reply.status, reply.body ?? errorBody(`stub error ${reply.status}`), reply.headers);
      return;
    }
    if ('delayMs' in reply) await delay(reply.delayMs);
    const model = isRecord(body) && typeof body.model === 'string' ? body.model : 'stub';
    sendJson(res, 200, completion(model, reply.content, requests.length));
  }

  function delay(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    setHandler(next) {
      current = next;
    },
    close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      return new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}

function completion(model: string, content: string, count: number) {
  return {
    id: `chatcmpl-stub-${count}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content }, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  };
}

function errorBody(message: string, type = 'stub_error') {
  return { error: { message, type, param: null, code: null } };
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  // The client may have given up (timeout) while the reply was being prepared.
  if (res.headersSent || res.destroyed) return;
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(payload),
  });
  res.end(payload);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
