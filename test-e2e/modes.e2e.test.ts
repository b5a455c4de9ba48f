// The same turn in the other run modes: the embedded database (PGlite, the
// local default) and one process per service (the Kubernetes shape).
import { randomUUID } from 'node:crypto';
import { ANSWERS, HearthClient } from './support/client.js';
import { startHearth, type StartOptions } from './support/process.js';

async function oneTurn(url: string): Promise<void> {
  const me = await new HearthClient(url).as();
  expect((await me.call('POST', '/v1/me')).status).toBe(200);
  const conversation = randomUUID();
  const refused = await me.say(conversation, 'too early');
  expect(refused.body.routing.pipeline).toBe('REFUSAL');
  const onboarded = await me.call('PUT', '/v1/me/onboarding', ANSWERS);
  expect(onboarded.body.persona?.template_id).toMatch(/^PT\d\d$/);
  const messageId = randomUUID();
  const reply = await me.say(conversation, 'hello from another mode', messageId);
  expect(reply.status).toBe(200);
  expect(reply.body).toMatchObject({ user_state: 'ACTIVE', routing: { pipeline: 'ONBOARDING_CHAT' } });
  expect(await me.say(conversation, 'hello from another mode', messageId)).toEqual(reply);
  const history = await me.call('GET', `/v1/conversations/${conversation}/messages`);
  expect(history.body.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
}

describe.each<[string, StartOptions]>([
  ['embedded PGlite, all services in one process', { mode: 'all', database: 'pglite' }],
  ['Postgres, one process per service', { mode: 'per-service', database: 'postgres' }],
])('a turn with %s', (_name, opts) => {
  it('runs end to end and shuts down cleanly', async () => {
    const hearth = await startHearth(opts);
    try {
      await oneTurn(hearth.url);
    } finally {
      const codes = await hearth.stop();
      expect(codes.every((c) => c === 0)).toBe(true);
    }
  }, 240_000);
});
