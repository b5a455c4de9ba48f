import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parser } from '@prometheus-io/lezer-promql';
import { parse as parseYaml } from 'yaml';
import { counter, histogram, initTelemetry, observableGauge, recordHttpServerRequest, type Telemetry } from '@hearth/telemetry';
import { waitFor } from '@hearth/testing';

/*
 * deploy/monitoring's alerts and dashboard query only metrics the services export:
 * the host's (HTTP, process, readiness) as this process's own /metrics text shows
 * them, and every instrument a library or service declares with a literal name
 * (`counter('hearth_…'`, `histogram(`, `observableGauge(`), created here through the
 * same helpers and exporter so their Prometheus names are the real ones. Renaming a
 * metric without its alert or panel fails this test.
 */

const ROOT = resolve(import.meta.dirname, '../../..');
const MONITORING = join(ROOT, 'deploy/monitoring');
/** Prometheus's own per-target series: no service exports it. */
const SCRAPE_SERIES = new Set(['up']);

interface Declared {
  kind: 'counter' | 'histogram' | 'observableGauge';
  name: string;
  unit: string | undefined;
  file: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'gen' ? [] : sourceFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Instruments declared with a literal name (and, for histograms, unit) in libs/ and services/. */
function declaredInstruments(): Declared[] {
  const call = /\b(counter|histogram|observableGauge)\(\s*'([A-Za-z_.][\w.]*)'\s*,\s*(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")\s*(?:,\s*'([^']*)')?/g;
  const out: Declared[] = [];
  for (const top of ['libs', 'services']) {
    for (const pkg of readdirSync(join(ROOT, top), { withFileTypes: true })) {
      if (!pkg.isDirectory()) continue;
      const src = join(ROOT, top, pkg.name, 'src');
      let files: string[];
      try {
        files = sourceFiles(src);
      } catch {
        continue;
      }
      for (const file of files) {
        for (const m of readFileSync(file, 'utf8').matchAll(call)) {
          out.push({ kind: m[1] as Declared['kind'], name: m[2]!, unit: m[3], file: relative(ROOT, file) });
        }
      }
    }
  }
  return out;
}

/** Metric names of a Prometheus text: a histogram's `_bucket`, `_sum` and `_count`, the others as typed. */
function exportedNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const m of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    const [, name, type] = m;
    if (type === 'histogram') for (const s of ['_bucket', '_sum', '_count']) names.add(`${name}${s}`);
    else names.add(name!);
  }
  return names;
}

/** Grafana's variables replaced by values PromQL accepts. */
function withoutGrafanaVariables(expr: string): string {
  return expr.replace(/\$__(rate_interval|interval|range)/g, '5m').replace(/\$\{?\w+\}?/g, 'x');
}

/** Metric names a PromQL expression selects; throws on a syntax error. */
function metricsOf(expr: string, where: string): string[] {
  const tree = parser.parse(expr);
  const names: string[] = [];
  let error: number | undefined;
  tree.iterate({
    enter(node) {
      if (node.type.isError && error === undefined) error = node.from;
      if (node.name === 'Identifier' && node.node.parent?.name === 'VectorSelector') names.push(expr.slice(node.from, node.to));
    },
  });
  if (error !== undefined) throw new Error(`${where}: PromQL syntax error at ${error}: ${expr}`);
  return names;
}

interface Rule {
  alert?: unknown;
  expr?: unknown;
  for?: unknown;
  labels?: { severity?: unknown };
  annotations?: { summary?: unknown; runbook?: unknown };
}

function alertRules(): Rule[] {
  const doc = parseYaml(readFileSync(join(MONITORING, 'alerts.yaml'), 'utf8')) as {
    kind?: string;
    spec?: { groups?: Array<{ name?: string; rules?: Rule[] }> };
  };
  expect(doc.kind).toBe('PrometheusRule');
  return (doc.spec?.groups ?? []).flatMap((g) => g.rules ?? []);
}

interface Panel {
  title?: string;
  targets?: Array<{ expr?: string; datasource?: { uid?: string } }>;
  panels?: Panel[];
}

/** Every PromQL expression of the dashboard, with where it is. */
function dashboardQueries(): Array<{ where: string; expr: string }> {
  const dash = JSON.parse(readFileSync(join(MONITORING, 'dashboard.json'), 'utf8')) as {
    panels: Panel[];
    templating: { list: Array<{ name: string; type: string; definition?: string }> };
  };
  const out: Array<{ where: string; expr: string }> = [];
  const walk = (panels: Panel[]) => {
    for (const p of panels) {
      for (const t of p.targets ?? []) {
        expect({ panel: p.title, datasource: t.datasource?.uid }).toEqual({ panel: p.title, datasource: '${datasource}' });
        if (t.expr) out.push({ where: `panel "${p.title}"`, expr: t.expr });
      }
      walk(p.panels ?? []);
    }
  };
  walk(dash.panels);
  expect(dash.templating.list.find((v) => v.type === 'datasource')?.name).toBe('datasource');
  for (const v of dash.templating.list) {
    const inner = v.definition && /^label_values\((.+),\s*\w+\)$/.exec(v.definition)?.[1];
    if (inner) out.push({ where: `variable ${v.name}`, expr: inner });
  }
  return out;
}

describe('deploy/monitoring', () => {
  let telemetry: Telemetry;
  let exported: Set<string>;

  beforeAll(async () => {
    telemetry = initTelemetry({ service: 'monitoring-test' });
    const gauges = [];
    const seen = new Set<string>();
    for (const d of declaredInstruments()) {
      if (seen.has(d.name)) continue;
      seen.add(d.name);
      if (d.kind === 'counter') counter(d.name, d.file).add(1);
      else if (d.kind === 'histogram') histogram(d.name, d.file, d.unit ?? '').record(1);
      else gauges.push(observableGauge(d.name, d.file, (r) => r.observe(1)));
    }
    recordHttpServerRequest({ method: 'GET', route: '/v1/me', statusCode: 200, seconds: 0.01 });
    // Runtime metrics show once the loop has been sampled and a GC has run.
    const text = await waitFor(
      async () => {
        Array.from({ length: 50_000 }, (_, i) => ({ i }));
        const t = await telemetry.metricsText();
        return /^v8js_gc_duration_seconds_count\{/m.test(t) && /^nodejs_eventloop_delay_p99_seconds\{/m.test(t) && t;
      },
      { what: 'runtime metrics on /metrics' },
    );
    for (const g of gauges) g.remove();
    exported = exportedNames(text);
  });

  afterAll(async () => {
    await telemetry.shutdown();
  });

  it('finds the instruments the services declare', () => {
    // A guard on the scan itself: these live in three different packages.
    expect([...exported]).toEqual(
      expect.arrayContaining(['hearth_consumer_lag', 'hearth_events_handled_total', 'hearth_turn_outcomes_total', 'hearth_ready', 'http_server_request_duration_seconds_bucket']),
    );
  });

  it('alerts.yaml: every rule has an expr, a for, a severity, a summary and a one-line runbook', () => {
    const rules = alertRules();
    expect(rules.length).toBeGreaterThan(0);
    for (const r of rules) {
      const problems = [
        typeof r.alert === 'string' && /^[A-Z]\w+$/.test(r.alert) ? null : 'alert name',
        typeof r.expr === 'string' && r.expr.trim() !== '' ? null : 'expr',
        typeof r.for === 'string' && /^\d+[smh]$/.test(r.for) ? null : 'for',
        r.labels?.severity === 'critical' || r.labels?.severity === 'warning' ? null : 'labels.severity',
        typeof r.annotations?.summary === 'string' && r.annotations.summary !== '' ? null : 'annotations.summary',
        typeof r.annotations?.runbook === 'string' && r.annotations.runbook !== '' && !r.annotations.runbook.includes('\n') ? null : 'annotations.runbook (one line)',
      ].filter((p) => p !== null);
      expect({ alert: r.alert, problems }).toEqual({ alert: r.alert, problems: [] });
    }
    expect(new Set(rules.map((r) => r.alert)).size).toBe(rules.length);
  });

  it('alerts.yaml covers consumer lag, dead letters, 5xx, readiness, absence and event-loop lag', () => {
    const used = alertRules().map((r) => ({ expr: r.expr as string, metrics: metricsOf(r.expr as string, String(r.alert)) }));
    const alerting = (metric: string, also: RegExp = /./) => used.some((u) => u.metrics.includes(metric) && also.test(u.expr));

    expect({
      lag: alerting('hearth_consumer_lag'),
      deadLetters: alerting('hearth_events_handled_total', /dead_letter/),
      http5xx: alerting('http_server_request_duration_seconds_count', /5\.\./),
      readiness: alerting('hearth_ready'),
      absent: alerting('target_info', /absent/),
      eventLoop: alerting('nodejs_eventloop_delay_p99_seconds'),
    }).toEqual({ lag: true, deadLetters: true, http5xx: true, readiness: true, absent: true, eventLoop: true });
  });

  it('alerts.yaml and dashboard.json parse as PromQL and query only exported metrics', () => {
    const queries = [
      ...alertRules().map((r) => ({ where: `alert ${String(r.alert)}`, expr: r.expr as string })),
      ...dashboardQueries(),
    ];
    expect(queries.length).toBeGreaterThan(20);

    const unknown = queries.flatMap(({ where, expr }) =>
      metricsOf(withoutGrafanaVariables(expr), where)
        .filter((m) => !exported.has(m) && !SCRAPE_SERIES.has(m))
        .map((m) => `${where}: ${m}`),
    );
    expect(unknown).toEqual([]);
  });
});
