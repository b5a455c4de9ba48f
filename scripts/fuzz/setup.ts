// The users of a fuzz run, made through the API: victims with conversations,
// memories and (optionally) a proactive message, a pool of actors in every user
// state, users whose erasure the fuzz may ask for, and an admin.
import { randomUUID } from 'node:crypto';
import { bodyOf, until, type FuzzClient } from './client.js';
import { bearer, jsonAuth, type HttpResponse } from './http.js';
import { nth, type FuzzUser, type World } from './world.js';

const HOUR = 3_600;

/**
 * turn-pipeline §11: three sessions and a 7-day cooldown make a FRIEND (the waits of
 * test-e2e/retention.e2e.test.ts); §14: a silent FRIEND with proactive messages on
 * hears from the companion within a day or two. Days of virtual clock, so it runs
 * before any other token is minted.
 */
async function friendWithNotification(api: FuzzClient, v: FuzzUser): Promise<void> {
  for (const wait of [60, 60, 4 * HOUR - 30, 4 * HOUR + 1, 4 * HOUR + 1, 60, 60, 7 * 24 * HOUR]) {
    await api.advance(wait);
    await api.refresh(v);
    await api.say(v, v.conversations[0]!, 'remember i was heartbroken');
  }
  await until(
    () => api.get(v, 'GET /v1/me/relationship', '/v1/me/relationship'),
    (r) => bodyOf(r).relationship_stage === 'FRIEND',
  );
  await api.call('PATCH /v1/me/controls', { method: 'PATCH', path: '/v1/me/controls', headers: jsonAuth(v.token), body: '{"proactive_messages_enabled":true}' });
  const proactive = (r: HttpResponse) => ((bodyOf(r).messages ?? []) as { source: string; message_id: string }[]).filter((m) => m.source === 'retention');
  for (let h = 0; h < 72 && v.notificationIds.length === 0; h += 6) {
    await api.advance(6 * HOUR);
    await api.refresh(v);
    const history = () => api.get(v, 'GET /v1/conversations/{conversation_id}/messages', `/v1/conversations/${v.conversations[0]}/messages?limit=200`);
    v.notificationIds.push(...proactive(await until(history, (x) => proactive(x).length > 0, 1_500)).map((m) => m.message_id));
  }
}

export async function setUpWorld(api: FuzzClient, opts: { notifications: boolean; log: (msg: string) => void }): Promise<World> {
  const victims = [await api.mint('victim-1'), await api.mint('victim-2')];
  for (const v of victims) {
    await api.onboard(v);
    const c = randomUUID();
    for (const text of ['I work as a nurse at the hospital', 'I love hiking with my dog Coco', 'my sister lives in Busan']) await api.say(v, c, text);
    await api.say(v, randomUUID(), 'a second conversation, just to say hello');
  }
  if (opts.notifications) {
    await friendWithNotification(api, victims[0]!);
    if (victims[0]!.notificationIds.length === 0) opts.log('setup: no proactive message reached victim-1; notification BOLA attempts aim at its reply ids');
    await api.refresh(victims[1]!);
  }
  for (const v of victims) {
    const r = await until(
      () => api.get(v, 'GET /v1/me/memories', '/v1/me/memories?status=all'),
      (x) => ((bodyOf(x).memories as unknown[] | undefined)?.length ?? 0) > 0,
    );
    v.memoryIds = ((bodyOf(r).memories ?? []) as { memory_id: string }[]).map((m) => m.memory_id);
  }

  const admin = await api.mint('admin', { admin: true });
  const pool: FuzzUser[] = [];
  for (let i = 1; i <= 8; i++) pool.push(await api.mint(`pool-${i}`));
  // Six onboarded with a conversation each, one CREATED only, one that never called POST /v1/me.
  await Promise.all(
    pool.slice(0, 6).map(async (u, i) => {
      await api.onboard(u, { client_timezone: nth(['Asia/Seoul', 'UTC', 'Europe/Berlin'], i)!, proactive_messages_enabled: i % 2 === 0 });
      await api.say(u, randomUUID(), 'I love hiking with my dog');
    }),
  );
  await api.call('POST /v1/me', { method: 'POST', path: '/v1/me', headers: bearer(pool[6]!.token) });
  const erasable = [await api.mint('erasable-1'), await api.mint('erasable-2')];
  for (const u of erasable) await api.onboard(u);
  return { pool, erasable, victims, admin };
}
