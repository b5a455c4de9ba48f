// ARCHITECTURE.md "Poison events never wedge a user": an event no service can
// store is quarantined, the user gets a definite answer for it and their next
// message works; operators see it listed, in the timeline, and can redrive it.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { Bus, LocalKek } from '@hearth/bus';
import { natsUrl, waitFor } from '@hearth/testing';
import { HearthClient, onboard } from './support/client.js';
import { appendPoisonTurn } from './support/poison.js';
import { startHearth, type RunningHearth } from './support/process.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('a poison event (NUL in a TurnReceived, appended behind the edge)', () => {
  let hearth: RunningHearth;
  let anon: HearthClient;
  let bus: Bus;

  beforeAll(async () => {
    hearth = await startHearth({ mode: 'all', database: 'postgres' });
    anon = new HearthClient(hearth.url);
    bus = await Bus.connect({ url: await natsUrl(), name: 'quarantine-e2e', namespace: hearth.namespace, logger: silent, encryption: { kek: LocalKek.forDevelopment(hearth.namespace) } });
  });

  afterAll(async () => {
    await bus?.close();
    await hearth?.stop();
  });

  it('is quarantined: a definite answer for that message, the next message works, listed and in the timeline', async () => {
    const user = await onboard(anon);
    const admin = await anon.as({ admin: true });
    const conversation = randomUUID();
    const first = await user.say(conversation, 'hi there');
    expect(first.status).toBe(200);

    // A poison turn (NUL), appended behind the edge.
    const poisonId = await appendPoisonTurn(bus, user, conversation, 'bad \u0000 byte');

    // The client retries the message (without the NUL its edge would now refuse) and gets a definite answer.
    let answer = await user.say(conversation, 'bad  byte', poisonId);
    while (answer.status === 504) answer = await user.say(conversation, 'bad  byte', poisonId);
    expect(answer.status).toBe(422);
    expect(answer.body.error).toMatchObject({ code: 'TURN_FAILED', details: { event_id: poisonId, service: expect.any(String) } });

    // The user's chain is not wedged.
    const next = await user.say(conversation, 'are you still there?');
    expect(next.status).toBe(200);
    expect(next.body.assistant.text.length).toBeGreaterThan(0);

    const listed = await admin.call('GET', '/v1/admin/dead-letters');
    expect(listed.status).toBe(200);
    const mine = listed.body.dead_letters.filter((d: { event_id: string }) => d.event_id === poisonId);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine[0]).toEqual({
      event_id: poisonId,
      type: 'hearth.ingress.v1.TurnReceived',
      user_id: user.userId,
      service: expect.any(String),
      consumer: expect.any(String),
      error: expect.stringMatching(/0x00|invalid byte sequence|null character/i),
      deliveries: expect.any(Number),
      quarantined_at: expect.any(String),
    });
    expect((await user.call('GET', '/v1/admin/dead-letters')).status).toBe(403);

    const timeline = (await admin.call('GET', `/v1/admin/users/${user.userId}/timeline`)).body.events;
    expect(timeline.filter((e: { type: string; event_id: string }) => e.type === 'Quarantined' && e.event_id === poisonId).length).toBe(mine.length);

    // Redriving cannot fix a NUL: it says so per consumer, and the dead letter stays listed.
    const redrive = await admin.call('POST', `/v1/admin/dead-letters/${poisonId}/redrive`);
    expect(redrive.status).toBe(200);
    expect(redrive.body.results.every((r: { redriven: boolean }) => !r.redriven)).toBe(true);
    expect((await admin.call('POST', `/v1/admin/dead-letters/${randomUUID()}/redrive`)).status).toBe(404);
    await waitFor(async () => (await admin.call('GET', '/v1/admin/dead-letters')).body.dead_letters.some((d: { event_id: string }) => d.event_id === poisonId), {
      what: 'the dead letter still listed',
    });

    // The operator's script sees the same, and its redrive reports the same failure.
    // HEARTH_ENV test: the script opens payloads with the development KEK of the namespace, as Hearth does here.
    const env = { ...process.env, NODE_OPTIONS: '', HEARTH_ENV: 'test', HEARTH_NAMESPACE: hearth.namespace, NATS_URL: await natsUrl() };
    const cwd = resolve(import.meta.dirname, '..');
    const run = promisify(execFile);
    const list = await run('node', ['--import', 'tsx', 'scripts/dlq.ts', 'list', '--json'], { cwd, env });
    expect(JSON.parse(list.stdout).map((d: { eventId: string }) => d.eventId)).toContain(poisonId);
    await expect(run('node', ['--import', 'tsx', 'scripts/dlq.ts', 'redrive', poisonId], { cwd, env })).rejects.toMatchObject({
      code: 1,
      stdout: expect.stringContaining('still quarantined'),
    });
  });
});
