// The uncertainty engine through the HTTP API on the virtual clock (issue 17's
// "done when"), against Hearth started as the README starts it (scripts/start,
// Postgres). What the friend says is read, not only the fields: a reply never
// asserts a memory the message it answers contradicts or corrects.
import { randomUUID } from 'node:crypto';
import { Bus, LocalKek } from '@hearth/bus';
import { schemaFor } from '@hearth/host';
import { openDatabase, replayProjection } from '@hearth/store';
import { databaseUrl, natsUrl } from '@hearth/testing';
import { ALL_SERVICES } from '../services/registry.js';
import { HearthClient, memoriesWhen, onboard, sayOk, settled } from './support/client.js';
import { startHearth, type RunningHearth } from './support/process.js';

interface UncertaintyBody {
  uncertainty_id: string;
  uncertainty_type: string;
  subjects: { kind: string; id: string }[];
  severity: string;
  state: string;
  detection_context: string;
  temporal_signal: boolean;
  resolution_strategy: string | null;
  surfaced_count: number;
  source_message_ids: string[];
  created_at: string;
  resolved_at: string | null;
}

interface View {
  uncertainties: UncertaintyBody[];
  tolerance: number;
}

interface MemoryBody {
  memory_id: string;
  memory_key: string;
  memory_value: string;
  status: string;
  reliability: string;
}

/** The memory uncertainties of a user once `done` holds (uncertainty decides moments around the reply). */
async function uncertaintiesWhen(anon: HearthClient, userId: string, done: (v: View) => boolean): Promise<View> {
  const admin = await anon.as({ admin: true });
  const r = await settled(
    () => admin.call('GET', `/v1/admin/users/${userId}/uncertainties`),
    (x) => x.status === 200 && done({ ...x.body, uncertainties: (x.body as View).uncertainties.filter((u) => u.subjects.every((s) => s.kind === 'memory')) }),
  );
  expect(r.status).toBe(200);
  const body = r.body as View;
  return { ...body, uncertainties: body.uncertainties.filter((u) => u.subjects.every((s) => s.kind === 'memory')) };
}

const text = (r: { body: { assistant: { text: string } } }) => r.body.assistant.text.toLowerCase();
/** An assertion, not a question: a sentence that says the friend remembers the user likes sushi. */
const ASSERTS_LIKE_SUSHI = /(remember|know|recall)[^?.!]*\b(like|love|loving|liking|fan of)\b[^?.!]*sushi[^?]*([.!]|$)/;

describe('uncertainty through the HTTP API on the virtual clock (scripts/start, Postgres)', () => {
  let hearth: RunningHearth;
  let anon: HearthClient;

  beforeAll(async () => {
    hearth = await startHearth({ mode: 'all', database: 'postgres' });
    anon = new HearthClient(hearth.url);
  });

  afterAll(async () => {
    expect(await hearth?.stop()).toEqual([0]);
  });

  it('a moved city supersedes silently: the reply does not assert the old city or ask about it, no open contradiction', async () => {
    const me = await onboard(anon);
    const c = randomUUID();
    await sayOk(me, c, 'I live in Seoul.');
    await memoriesWhen<MemoryBody>(me, (ms) => ms.some((m) => m.memory_key === 'fact:current_city' && m.memory_value === 'seoul'));
    const moved = await sayOk(me, c, 'I moved to Busan last month.');
    expect(text(moved)).not.toContain('seoul');
    expect(text(moved)).not.toMatch(/what changed|did something change/);
    const view = await uncertaintiesWhen(anon, me.userId!, (v) => v.uncertainties.length === 1);
    expect(view.uncertainties[0]).toMatchObject({ uncertainty_type: 'contradiction', state: 'resolved', resolution_strategy: 'temporal_supersede', temporal_signal: true, detection_context: 'ingestion', surfaced_count: 0 });
    const ms = await memoriesWhen<MemoryBody>(me, (x) => x.some((m) => m.memory_value === 'busan'), true);
    expect(ms.find((m) => m.memory_value === 'busan')).toMatchObject({ status: 'ACTIVE', reliability: 'reliable' });
    expect(ms.find((m) => m.memory_value === 'seoul')).toMatchObject({ status: 'SUPERSEDED', reliability: 'superseded' });
  });

  it('an explicit correction is applied, the next reply uses the new value, and tolerance moves by −0.03 (and +0.01 on a restatement)', async () => {
    const me = await onboard(anon);
    const c = randomUUID();
    await sayOk(me, c, 'I live in Seoul.');
    await memoriesWhen<MemoryBody>(me, (ms) => ms.some((m) => m.memory_value === 'seoul'));
    const corrected = await sayOk(me, c, 'Actually I live in Busan, not Seoul.');
    expect(text(corrected)).not.toMatch(/your current city is seoul|you live in seoul|remember[^?]*seoul/);
    await memoriesWhen<MemoryBody>(me, (ms) => ms.some((m) => m.memory_value === 'busan'));
    const recall = await sayOk(me, c, 'Do you remember where I live?');
    expect(text(recall)).toContain('busan');
    expect(text(recall)).not.toContain('seoul');
    let view = await uncertaintiesWhen(anon, me.userId!, (v) => v.uncertainties.length === 1);
    expect(view.uncertainties[0]).toMatchObject({ state: 'resolved', resolution_strategy: 'user_clarified', temporal_signal: false });
    expect(view.tolerance).toBeCloseTo(0.47, 5);
    await sayOk(me, c, 'I live in Busan.');
    view = await uncertaintiesWhen(anon, me.userId!, (v) => Math.abs(v.tolerance - 0.48) < 1e-6);
    expect(view.tolerance).toBeCloseTo(0.48, 5);
  });

  it('a stance flip without a temporal cue: an open contradiction, and the very reply neither asserts the old stance nor ignores the change', async () => {
    const me = await onboard(anon);
    const c = randomUUID();
    await sayOk(me, c, 'I love sushi.');
    await memoriesWhen<MemoryBody>(me, (ms) => ms.some((m) => m.memory_value === 'like|sushi'));
    const flip = await sayOk(me, c, 'I hate sushi.');
    expect(text(flip)).not.toMatch(ASSERTS_LIKE_SUSHI);
    // It asks: the change is named as a question.
    expect(text(flip)).toMatch(/sushi[^.!]*\?/);
    const view = await uncertaintiesWhen(anon, me.userId!, (v) => v.uncertainties.length === 1 && v.uncertainties[0]!.subjects.length === 2 && v.uncertainties[0]!.surfaced_count === 1);
    expect(view.uncertainties[0]).toMatchObject({ uncertainty_type: 'contradiction', severity: 'critical', state: 'surfaced', detection_context: 'ingestion', temporal_signal: false, resolution_strategy: null });
    expect(view.uncertainties[0]!.source_message_ids).toContain(flip.body.message_id);
    const ms = await memoriesWhen<MemoryBody>(me, (x) => x.some((m) => m.memory_value === 'dislike|sushi' && m.reliability === 'contradicted'));
    expect(ms.find((m) => m.memory_value === 'dislike|sushi')).toMatchObject({ status: 'ACTIVE', reliability: 'contradicted' });
  });

  it('an open contradiction is raised only in a matching context, at most three times, then steps down', async () => {
    const me = await onboard(anon);
    const c = randomUUID();
    await sayOk(me, c, 'I love sushi.');
    await memoriesWhen<MemoryBody>(me, (ms) => ms.some((m) => m.memory_value === 'like|sushi'));
    const flip = await sayOk(me, c, 'I hate sushi.');
    expect(text(flip)).toMatch(/sushi[^.!]*\?/);
    const off = await sayOk(me, c, 'I went for a long walk by the river today.');
    expect(text(off)).not.toContain('sushi');
    const asked: string[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await sayOk(me, c, 'What should I have for dinner tonight?');
      if (text(r).includes('sushi')) asked.push(text(r));
      await sayOk(me, c, 'Work was busy today.');
    }
    // The flip's own reply was the first surfacing; two more in a matching context make three.
    expect(asked).toHaveLength(2);
    expect(new Set(asked).size).toBe(2);
    const view = await uncertaintiesWhen(anon, me.userId!, (v) => v.uncertainties[0]?.severity === 'high');
    expect(view.uncertainties[0]).toMatchObject({ surfaced_count: 3, severity: 'high', state: 'surfaced' });
  });

  it('a clarifying answer resolves it (user_clarified), and the friend holds the answer', async () => {
    const me = await onboard(anon);
    const c = randomUUID();
    await sayOk(me, c, 'I love sushi.');
    await memoriesWhen<MemoryBody>(me, (ms) => ms.some((m) => m.memory_value === 'like|sushi'));
    await sayOk(me, c, 'I hate sushi.');
    await sayOk(me, c, 'Ha, no, I still love it honestly.');
    const view = await uncertaintiesWhen(anon, me.userId!, (v) => v.uncertainties[0]?.state === 'resolved');
    expect(view.uncertainties[0]).toMatchObject({ state: 'resolved', resolution_strategy: 'user_clarified' });
    const ms = await memoriesWhen<MemoryBody>(me, (x) => x.some((m) => m.memory_value === 'like|sushi'));
    expect(ms.filter((m) => m.memory_key === 'pref:food:sushi')).toEqual([expect.objectContaining({ memory_value: 'like|sushi', reliability: 'reliable' })]);
  });

  it('restating one side resolves it by evidence (> 2× the other side)', async () => {
    const me = await onboard(anon);
    const c = randomUUID();
    await sayOk(me, c, 'I love sushi.');
    await memoriesWhen<MemoryBody>(me, (ms) => ms.some((m) => m.memory_value === 'like|sushi'));
    await sayOk(me, c, 'I hate sushi.');
    await sayOk(me, c, 'I went for a long walk by the river today.');
    await sayOk(me, c, 'Seriously, I hate sushi.');
    const view = await uncertaintiesWhen(anon, me.userId!, (v) => v.uncertainties[0]?.state === 'resolved');
    expect(view.uncertainties[0]).toMatchObject({ state: 'resolved', resolution_strategy: 'evidence_resolved' });
    const ms = await memoriesWhen<MemoryBody>(me, (x) => x.some((m) => m.memory_value === 'dislike|sushi' && m.reliability === 'reliable'));
    expect(ms.find((m) => m.memory_value === 'dislike|sushi')).toMatchObject({ reliability: 'reliable' });
  });

  // Last: the flows above rebuilt from the log equal the live rows, in uncertainty and in the projections of its state.
  it('replays uncertainty, memory and belief-graph equal to their live rows', async () => {
    const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const bus = await Bus.connect({ url: await natsUrl(), name: 'e2e-replay-unc', namespace: hearth.namespace, logger: silent, encryption: { kek: LocalKek.forDevelopment(hearth.namespace) } });
    const database = await openDatabase({ url: await databaseUrl() });
    try {
      const results: [string, boolean][] = [];
      for (const s of ALL_SERVICES.filter((x) => ['uncertainty', 'memory', 'belief-graph'].includes(x.name))) {
        for (const p of s.projections) {
          const report = await replayProjection({ bus, database, service: s.name, schema: schemaFor(hearth.namespace, s.name), projection: p, migrations: s.migrations });
          results.push([`${s.name}/${p.name}`, report.equal]);
        }
      }
      expect(results).toEqual([
        ['memory/memories', true],
        ['belief-graph/beliefs', true],
        ['uncertainty/uncertainties', true],
      ]);
    } finally {
      await bus.close();
      await database.close();
    }
  });
});
