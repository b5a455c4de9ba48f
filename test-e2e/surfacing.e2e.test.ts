// Surfacing only what the message is about (issue 15, inside turn-pipeline
// §10.1 and §13), through the HTTP API against Hearth started as the README
// starts it (scripts/start, offline provider, Postgres): a memory the message is
// about is surfaced, an unrelated one is not, whatever exists; a recall question
// searches; the recorded retrieval carries each memory's relevance.
import { randomUUID } from 'node:crypto';
import { HearthClient, memoriesWhen as memoriesOf, onboard, sayOk } from './support/client.js';
import { startHearth, type RunningHearth } from './support/process.js';

interface MemoryBody {
  memory_id: string;
  memory_key: string;
  memory_value: string;
  created_at: string;
  occurred_on: string | null;
  occurred_precision: string | null;
}

interface RetrievedJson {
  memoryId: string;
  relevance?: number;
}

describe('surfacing memories through the HTTP API (scripts/start, Postgres)', () => {
  let hearth: RunningHearth;
  let anon: HearthClient;

  beforeAll(async () => {
    hearth = await startHearth({ mode: 'all', database: 'postgres' });
    anon = new HearthClient(hearth.url);
  });

  afterAll(async () => {
    expect(await hearth?.stop()).toEqual([0]);
  });

  const say = sayOk;

  const memoriesWhen = (me: HearthClient, done: (ms: MemoryBody[]) => boolean) => memoriesOf<MemoryBody>(me, done);

  /** What the turn recorded it retrieved, with relevance (protobuf JSON leaves out a 0). */
  async function retrieved(messageId: string): Promise<Map<string, number>> {
    const admin = await anon.as({ admin: true });
    const trail = await admin.call('GET', `/v1/admin/turns/${messageId}`);
    expect(trail.status).toBe(200);
    const memories = (trail.body.retrieval as { memories?: RetrievedJson[] } | null)?.memories ?? [];
    return new Map(memories.map((m) => [m.memoryId, m.relevance ?? 0]));
  }

  it('"I remember you like dancing" never answers "I had pasta for lunch" nor any message that merely says "like"; one about dancing surfaces it', async () => {
    // given: the friend knows the user likes dancing
    const me = await onboard(anon);
    const conversation = randomUUID();
    await say(me, conversation, 'I love dancing');
    const memories = await memoriesWhen(me, (ms) => ms.some((m) => m.memory_key === 'pref:hobby:dancing'));
    const dancing = memories.find((m) => m.memory_key === 'pref:hobby:dancing')!;

    // when
    const lunch = await say(me, conversation, 'I had pasta for lunch');
    const lunchRetrieved = await retrieved(lunch.body.message_id);
    const shoes = await say(me, conversation, 'I really like my new shoes');
    const dance = await say(me, conversation, 'We went dancing again at the studio');
    const danceRetrieved = await retrieved(dance.body.message_id);

    // then: loaded both times, but surfaced only when the message is about it
    expect(lunchRetrieved.get(dancing.memory_id)).toBe(0);
    expect(lunch.body.assistant.surfaced_memory_ids).not.toContain(dancing.memory_id);
    expect(lunch.body.assistant.text.toLowerCase()).not.toContain('dancing');
    expect(shoes.body.assistant.surfaced_memory_ids).not.toContain(dancing.memory_id);
    expect(shoes.body.assistant.text.toLowerCase()).not.toContain('dancing');
    expect(danceRetrieved.get(dancing.memory_id)).toBeGreaterThan(0);
    expect(dance.body.assistant.surfaced_memory_ids).toContain(dancing.memory_id);
  });

  it('a recall question searches and surfaces what it is about, not whatever exists', async () => {
    // given
    const me = await onboard(anon);
    const conversation = randomUUID();
    await say(me, conversation, 'I love jazz music');
    await say(me, conversation, 'I work as a nurse');
    const memories = await memoriesWhen(me, (ms) => ms.some((m) => m.memory_key === 'fact:occupation') && ms.some((m) => m.memory_key === 'pref:music:jazz'));
    const jazz = memories.find((m) => m.memory_key === 'pref:music:jazz')!;
    const nurse = memories.find((m) => m.memory_key === 'fact:occupation')!;

    // when
    const recall = await say(me, conversation, 'Do you remember what music I listen to?');
    const vague = await say(me, conversation, 'Do you remember what I told you?');

    // then
    expect(recall.body.assistant.surfaced_memory_ids).toContain(jazz.memory_id);
    expect(recall.body.assistant.surfaced_memory_ids).not.toContain(nurse.memory_id);
    expect(vague.body.assistant.surfaced_memory_ids).toEqual([]);
  });
  it('a dated event is recalled in the user’s own words with the date they stated', async () => {
    // given: told on one day about the day before
    const me = await onboard(anon);
    const conversation = randomUUID();
    await say(me, conversation, 'I went to a pottery workshop with my sister yesterday and it was so relaxing.');
    const event = (await memoriesWhen(me, (ms) => ms.some((m) => m.memory_key.startsWith('event:')))).find((m) => m.memory_key.startsWith('event:'))!;
    const created = new Date(event.created_at);
    const day = new Date(Date.UTC(created.getUTCFullYear(), created.getUTCMonth(), created.getUTCDate() - 1));
    expect(event).toMatchObject({ occurred_on: day.toISOString().slice(0, 10), occurred_precision: 'day' });

    // when
    const recall = await say(me, conversation, 'Do you remember when I went to the pottery workshop?');

    // then: surfaced, and said back as the user told it, with that date
    expect(recall.body.assistant.surfaced_memory_ids).toContain(event.memory_id);
    const text = recall.body.assistant.text.toLowerCase();
    expect(text).toContain('you went to a pottery workshop with your sister');
    const months = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
    expect(text).toContain(`${day.getUTCDate()} ${months[day.getUTCMonth()]} ${day.getUTCFullYear()}`);
  });

  it('"I love sushi", then "I hate sushi": the reply to the change never says they like sushi', async () => {
    // given
    const me = await onboard(anon);
    const conversation = randomUUID();
    await say(me, conversation, 'I love sushi');
    await memoriesWhen(me, (ms) => ms.some((m) => m.memory_value === 'like|sushi'));

    // when
    const hate = await say(me, conversation, 'I hate sushi');

    // then
    expect(hate.body.assistant.surfaced_memory_ids).toEqual([]);
    expect(hate.body.assistant.text.toLowerCase()).not.toMatch(/you like sushi|you love sushi/);
  });
});
