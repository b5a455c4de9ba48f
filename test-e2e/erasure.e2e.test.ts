// Erasure by crypto-shredding through the HTTP API (API.md DELETE /v1/me,
// ARCHITECTURE.md "Personal data, export and erasure", invariant 9): a canary
// the user wrote in chat, in an onboarding answer, in a memory and in a forced
// dead letter is findable before erasure and, after it, in no stream message,
// no table of any schema, no dead letter and no log line; another user's data
// and replay stay untouched; POST /v1/me then starts a new, empty user.
import { randomBytes, randomUUID } from 'node:crypto';
import { DeliverPolicy } from '@nats-io/jetstream';
import { Bus, LocalKek, SERVICE_NAMES, type StoredEvent } from '@hearth/bus';
import { schemaFor } from '@hearth/host';
import { openDatabase, replayProjection, type Database } from '@hearth/store';
import { databaseUrl, natsUrl, waitFor } from '@hearth/testing';
import { sql } from 'kysely';
import { ALL_SERVICES } from '../services/registry.js';
import { HearthClient, onboard, settled, type Reply } from './support/client.js';
import { appendPoisonTurn } from './support/poison.js';
import { startHearth, type RunningHearth } from './support/process.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** A word nobody else writes, lower case (memory may lower-case what it keeps). */
const CANARY = `zorb${randomBytes(4).toString('hex').replace(/\d/g, (d) => 'ghijklmnop'[Number(d)]!)}`;
const Canary = CANARY[0]!.toUpperCase() + CANARY.slice(1);
const has = (text: string) => text.toLowerCase().includes(CANARY);

describe.each(['postgres', 'pglite'] as const)('DELETE /v1/me: erasure by crypto-shredding (scripts/start, %s)', (mode) => {
  let hearth: RunningHearth;
  let anon: HearthClient;
  let admin: HearthClient;
  let bus: Bus;
  /** Postgres: the test server, open throughout. PGlite: opened once Hearth stopped (single-process). */
  let database: Database | undefined;

  beforeAll(async () => {
    hearth = await startHearth({ mode: 'all', database: mode, env: { LOG_LEVEL: 'debug' }, keepAllOutput: true });
    anon = new HearthClient(hearth.url);
    admin = await anon.as({ admin: true });
    bus = await Bus.connect({ url: await natsUrl(), name: 'erasure-e2e', namespace: hearth.namespace, logger: silent, encryption: { kek: LocalKek.forDevelopment(hearth.namespace) } });
    if (mode === 'postgres') database = await openDatabase({ url: await databaseUrl() });
  });

  afterAll(async () => {
    await bus?.close();
    await database?.close();
    await hearth?.stop();
    await hearth?.cleanup();
  });

  /** Every message of every stream and key bucket of the namespace, raw as the server keeps it. */
  async function streamTexts(): Promise<{ stream: string; seq: number; text: string }[]> {
    const out: { stream: string; seq: number; text: string }[] = [];
    const ns = hearth.namespace;
    for await (const name of bus.jsm.streams.names()) {
      if (!name.toUpperCase().startsWith(`${ns}_`.toUpperCase()) && !name.startsWith(`KV_${ns}_`)) continue;
      const info = await bus.jsm.streams.info(name);
      if (info.state.messages === 0) continue;
      const c = await bus.js.consumers.get(name, { deliver_policy: DeliverPolicy.All });
      const it = await c.consume({ max_messages: 500 });
      for await (const m of it) {
        out.push({ stream: name, seq: m.seq, text: Buffer.from(m.data).toString('latin1') + JSON.stringify(m.headers ? [...m.headers.keys()].map((k) => m.headers!.get(k)) : []) });
        if (m.info.pending === 0) break;
      }
      it.stop();
    }
    return out;
  }

  /** Every row of every table of the namespace's schemas, as JSON text. */
  async function tableTexts(database: Database): Promise<{ table: string; row: string }[]> {
    const tables = await sql<{ table_schema: string; table_name: string }>`
      select table_schema, table_name from information_schema.tables
      where table_schema like ${`${hearth.namespace}\\_%`} and table_type = 'BASE TABLE'`.execute(database.root);
    const out: { table: string; row: string }[] = [];
    for (const t of tables.rows) {
      const rows = await sql<{ r: string }>`select to_jsonb(x)::text as r from ${sql.table(`${t.table_schema}.${t.table_name}`)} x`.execute(database.root);
      for (const r of rows.rows) out.push({ table: `${t.table_schema}.${t.table_name}`, row: r.r });
    }
    return out;
  }

  async function readable(userId: string): Promise<StoredEvent[]> {
    const out: StoredEvent[] = [];
    for (const s of SERVICE_NAMES) for await (const e of bus.read(s, { key: userId })) out.push(e);
    return out;
  }

  it('forgets everything the user wrote, everywhere, within 10 s; leaves others alone; a new start is empty', async () => {
    const victim = await onboard(anon, { preferred_name: Canary });
    const bystander = await onboard(anon);
    const conversation = randomUUID();
    const sentIds: string[] = [];
    for (const text of [`I live in ${Canary}`, `My best friend is ${Canary} and we grew up together`, `My dog is called ${Canary}`]) {
      const messageId = randomUUID();
      sentIds.push(messageId);
      expect((await victim.say(conversation, text, messageId)).status).toBe(200);
    }
    expect((await bystander.say(randomUUID(), 'I love hiking in the mountains')).status).toBe(200);
    const victimMemories = await settled(() => victim.call('GET', '/v1/me/memories?status=all'), (r) => r.body.memories?.some((m: { memory_value: string | null }) => has(m.memory_value ?? '')));
    expect(JSON.stringify(victimMemories.body).toLowerCase()).toContain(CANARY);
    const bystanderBefore = await settled(() => bystander.call('GET', '/v1/me/memories?status=all'), (r) => r.body.memories?.length > 0);
    expect(bystanderBefore.body.memories.length).toBeGreaterThan(0);

    // A forced dead letter: a poison turn (NUL) that quotes the canary, appended behind the edge.
    const poisonId = await appendPoisonTurn(bus, victim, conversation, `${Canary} \u0000 poison`);
    await waitFor(async () => ((await admin.call('GET', '/v1/admin/dead-letters')).body.dead_letters ?? []).some((d: { event_id: string }) => d.event_id === poisonId), {
      what: 'the poison turn to be dead-lettered',
      timeoutMs: 60_000,
    });

    // Before: findable through the API and in the tables; never in the streams (sealed).
    const exported = await victim.call('GET', '/v1/me/export');
    expect(exported.status).toBe(200);
    expect(has(JSON.stringify(exported.body))).toBe(true);
    const timelineBefore = await admin.call('GET', `/v1/admin/users/${victim.userId}/timeline`);
    expect(has(JSON.stringify(timelineBefore.body))).toBe(true);
    if (database) expect((await tableTexts(database)).some((t) => has(t.row))).toBe(true);
    expect((await streamTexts()).filter((m) => has(m.text))).toEqual([]);
    expect((await readable(victim.userId!)).some((e) => has(Buffer.from(e.payload).toString('utf8')))).toBe(true);

    // Erase: 202 at once, the same erasure again, completed within 10 s.
    const started = Date.now();
    // Three at once (a phone retrying): one erasure, the same answer to each.
    const [first, ...others] = await Promise.all([1, 2, 3].map(() => victim.call('DELETE', '/v1/me')));
    expect(first!.status).toBe(202);
    for (const o of others) expect([o.status, o.body.erasure_id]).toEqual([202, first!.body.erasure_id]);
    expect(first!.body).toEqual({ erasure_id: expect.any(String), status: expect.stringMatching(/^(accepted|completed)$/) });
    // Each repeat answers 202 with the same erasure, until one says completed.
    const repeats: Reply[] = [first!];
    const completed = await waitFor(
      async () => {
        if (repeats.at(-1)!.body.status === 'completed') return true;
        repeats.push(await victim.call('DELETE', '/v1/me'));
        return repeats.at(-1)!.body.status === 'completed';
      },
      { what: 'the erasure to complete', timeoutMs: 10_000 - (Date.now() - started), intervalMs: 100 },
    ).catch((err: unknown) => {
      console.log(hearth.output().split('\n').filter((l) => /"level":"(warn|error)"/.test(l)).slice(-30).join('\n'));
      throw err;
    });
    expect(completed).toBe(true);
    for (const r of repeats) expect([r.status, r.body.erasure_id]).toEqual([202, first!.body.erasure_id]);
    const tookMs = Date.now() - started;
    console.log(`erasure completed in ${tookMs} ms`);

    expect((await victim.call('GET', '/v1/me')).status).toBe(404);
    expect((await victim.call('GET', '/v1/me/export')).status).toBe(404);
    // Operators see it: each service counts the erasures it applied, and how long after the request.
    const metrics = String((await anon.call('GET', '/metrics')).body);
    for (const service of ['ingress', 'memory', 'orchestrator', 'retention']) {
      expect(metrics).toMatch(new RegExp(`hearth_erasures_applied_total\\{[^}]*service="${service}"[^}]*\\} 1`));
    }
    expect(metrics).toContain('hearth_erasure_apply_seconds_bucket');

    // After: nowhere — stream messages, tables of every schema, dead letters, logs.
    expect((await streamTexts()).filter((m) => has(m.text))).toEqual([]);
    if (database) expect((await tableTexts(database)).filter((t) => has(t.row))).toEqual([]);
    const dead = (await admin.call('GET', '/v1/admin/dead-letters')).body.dead_letters;
    expect(dead.filter((d: { user_id: string }) => d.user_id === victim.userId)).toEqual([]);
    const victimEvents = await readable(victim.userId!);
    expect(victimEvents.length).toBeGreaterThan(5);
    expect(victimEvents.filter((e) => !e.erased)).toEqual([]);
    const timeline = (await admin.call('GET', `/v1/admin/users/${victim.userId}/timeline`)).body.events as { type: string; payload: unknown; erased: boolean }[];
    expect(has(JSON.stringify(timeline))).toBe(false);
    const kept = timeline.filter((e) => !e.type.startsWith('hearth.common.v1.'));
    expect(kept.length).toBeGreaterThan(5);
    for (const e of kept) expect(e).toMatchObject({ payload: null, erased: true });
    expect(timeline.map((e) => e.type)).toContain('hearth.common.v1.UserErased');

    // Another user: untouched.
    expect((await bystander.call('GET', '/v1/me')).status).toBe(200);
    const bystanderAfter = await bystander.call('GET', '/v1/me/memories?status=all');
    expect(bystanderAfter.body.memories).toEqual(bystanderBefore.body.memories);
    expect((await bystander.say(randomUUID(), 'still here?')).status).toBe(200);

    // A new start: a new, empty user, who can onboard and chat again.
    expect((await victim.call('POST', '/v1/me')).status).toBe(200);
    const fresh = await victim.call('GET', '/v1/me');
    expect(fresh.body).toMatchObject({ user_state: 'CREATED', answers: null });
    expect((await victim.call('GET', '/v1/me/memories?status=all')).body.memories).toEqual([]);
    const history = await victim.call('GET', `/v1/conversations/${conversation}/messages`);
    expect([history.status, has(JSON.stringify(history.body))]).toEqual([200, false]);
    expect(history.body.messages).toEqual([]);
    expect((await victim.call('PUT', '/v1/me/onboarding', { ...{ preferred_name: 'Mina', age_band: '25-34', country_or_region: 'KR', occupation_category: 'working', client_timezone: 'Asia/Seoul', proactive_messages_enabled: true, suppressed_topics: [] } })).status).toBe(200);
    expect((await victim.say(randomUUID(), 'hello again')).status).toBe(200);
    // A message_id the erased user used is the new user's to use: answered, not taken for a repeat.
    const reused = await victim.say(randomUUID(), 'hello once more', sentIds[0]);
    expect(reused.status).toBe(200);
    expect(has(JSON.stringify(reused.body))).toBe(false);

    // Logs: nothing the process printed, at debug level, quotes the canary.
    const lines = hearth.output().split('\n').filter((l) => has(l));
    expect(lines).toEqual([]);

    if (mode === 'pglite') {
      // The embedded database is the process's own: read it once Hearth stopped.
      await hearth.stop({ keepData: true });
      database = await openDatabase({ pgliteDir: hearth.pgliteDir! });
      expect((await tableTexts(database)).filter((t) => has(t.row))).toEqual([]);
    }
    // Replay still equals live, every projection of every service.
    for (const s of ALL_SERVICES) {
      for (const p of s.projections) {
        const report = await replayProjection({ bus, database: database!, service: s.name, schema: schemaFor(hearth.namespace, s.name), projection: p, migrations: s.migrations });
        expect([`${s.name}/${p.name}`, report.equal, report.tables.filter((t) => t.onlyLive + t.onlyReplay > 0)]).toEqual([`${s.name}/${p.name}`, true, []]);
      }
    }
  }, 150_000);
});
