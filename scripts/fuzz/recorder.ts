// What a fuzz run saw: every answer counted by route and status, each kind of
// violation once with its first reproducer, and the warnings beside them.
import { describeResponse, reproducer, type HttpRequest, type HttpResponse } from './http.js';

export type Phase = 'setup' | 'forged' | 'fuzz' | 'checks';

export type ViolationKind =
  | '5xx'
  | 'no response'
  | 'bola'
  | 'victim changed'
  | 'forged token'
  | 'control'
  | 'chat after'
  | 'production'
  | 'rate limit'
  | 'error shape'
  | 'expectation';

/** One kind of failure: how often, and the first occurrence as a reproducer. */
export interface Violation {
  kind: ViolationKind;
  /** Route, status and error code, or the check's name. */
  key: string;
  count: number;
  /** Index in the generated sequence (`--only`), when it is a generated request. */
  index?: number;
  request?: string;
  response?: string;
  detail?: string;
}

/** What a generated request says about itself, for grouping and expectations. */
export interface RequestFacts {
  /** The body's shape (`json`, `nested`, `huge`…). */
  kind?: string;
  /** The answer API.md names for it, when it names one. */
  expect?: { what: string; statuses: readonly number[] };
}

/** A 404 of the router (no such route), not of a handler. */
export function isRouterMiss(res: HttpResponse): boolean {
  return res.status === 404 && /^Cannot [A-Z]+ /.test(errorOf(res)?.message ?? '');
}

/** Fastify's answer to a URL it cannot route (bad percent-encoding, a parameter past its length). */
function isUrlError(res: HttpResponse): boolean {
  const code = (res.json as { code?: unknown } | undefined)?.code ?? errorOf(res)?.code;
  return (res.status === 400 || res.status === 414) && typeof code === 'string' && /^FST_ERR_(BAD_URL|MAX_PARAM_LENGTH)$/.test(code);
}

/** The `error` of an answer in the API's error shape. */
export function errorOf(res: HttpResponse): { code: string; message: string } | undefined {
  const e = (res.json as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  return e && typeof e.code === 'string' && typeof e.message === 'string' ? { code: e.code, message: e.message } : undefined;
}

function tally(map: Map<string, Violation>, id: string, v: Omit<Violation, 'count'>): void {
  const seen = map.get(id);
  if (seen) seen.count++;
  else map.set(id, { ...v, count: 1 });
}

export class Recorder {
  /** route → status → count (status 0: no response). */
  readonly figures: Record<string, Record<string, number>> = {};
  readonly sent: Record<Phase, number> = { setup: 0, forged: 0, fuzz: 0, checks: 0 };
  private readonly violations = new Map<string, Violation>();
  private readonly warnings = new Map<string, Violation>();
  /** Per route: 404s of the router itself (`Cannot GET …`), and answers only a handler gives. */
  private readonly routerMisses: Record<string, [misses: number, handled: number]> = {};

  violation(v: Omit<Violation, 'count'>): void {
    tally(this.violations, `${v.kind} ${v.key}`, v);
  }

  /**
   * Counts an answer. A 5xx or no answer is a violation wherever it happens; an
   * error answer not in the API's shape, or one other than `facts.expect`, a warning.
   */
  record(phase: Phase, base: string, route: string, req: HttpRequest, res: HttpResponse, index?: number, facts: RequestFacts = {}): void {
    this.sent[phase]++;
    const row = (this.figures[route] ??= {});
    row[String(res.status)] = (row[String(res.status)] ?? 0) + 1;
    const m = (this.routerMisses[route] ??= [0, 0]);
    if (isRouterMiss(res)) m[0]++;
    if ((res.status >= 200 && res.status < 300) || [401, 403, 409, 422].includes(res.status)) m[1]++;

    const example = { index, request: reproducer(base, req), response: describeResponse(res) };
    const kind = facts.kind ? ` [${facts.kind}]` : '';
    if (res.status === 0) this.violation({ kind: 'no response', key: `${route} (${phase})${kind}`, ...example });
    else if (res.status >= 500) this.violation({ kind: '5xx', key: `${route} → ${res.status} ${errorOf(res)?.code ?? ''}${kind}`, ...example });
    if (res.status >= 400 && req.method !== 'HEAD' && !errorOf(res)) {
      const code = (res.json as { code?: unknown } | undefined)?.code;
      const key = `${res.status} ${typeof code === 'string' ? code : ''} not in the error shape`;
      tally(this.warnings, key, { kind: 'error shape', key, ...example });
    }
    // A path the router refuses (no such route, a bad or overlong URL) is answered before the body is read.
    const want = facts.expect;
    if (want && res.status !== 0 && !want.statuses.includes(res.status) && !isRouterMiss(res) && !isUrlError(res)) {
      const key = `${want.what}: ${res.status} (want ${want.statuses.join('/')}) on ${route}`;
      tally(this.warnings, key, { kind: 'expectation', key, ...example });
    }
  }

  /** Routes the router missed and no handler ever answered (a 2xx, 401, 403, 409 or 422 comes from a handler). */
  get notServed(): string[] {
    return Object.entries(this.routerMisses)
      .filter(([route, [misses, handled]]) => !route.startsWith('(') && misses > 0 && handled === 0)
      .map(([route]) => route)
      .sort();
  }

  get violationList(): Violation[] {
    return [...this.violations.values()];
  }

  get violationCount(): number {
    return this.violationList.reduce((n, v) => n + v.count, 0);
  }

  get warningList(): Violation[] {
    return [...this.warnings.values()];
  }
}
