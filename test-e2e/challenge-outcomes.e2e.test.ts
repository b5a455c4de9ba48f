// belief-challenge.md's reward correlation from trust's outcomes (issue 18), against
// Hearth started as the README starts it (scripts/start, Postgres): the companion
// challenges a harmful belief, the user insists on it, and as the virtual clock
// passes both horizons trust judges the challenge badly; the belief graph then
// reads a negative reward correlation for that belief.
import { randomUUID } from 'node:crypto';
import { Bus, LocalKek } from '@hearth/bus';
import { queryClients } from '@hearth/events';
import { belief } from '@hearth/proto';
import { natsUrl } from '@hearth/testing';
import { HearthClient, onboard, sayOk, settled, type Reply } from './support/client.js';
import { startHearth, type RunningHearth } from './support/process.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const DAY_S = 86_400;
const HOUR_S = 3_600;
const HARMFUL = 'My family disrespects me for not working with my hands.';

interface GraphBody {
  nodes: { belief_id: string; canonical_text: string; occurrence_count: number }[];
  challenges: { challenge_id: string; belief_id: string; message_id: string }[];
}

/** The user's graph once `done` holds of it, read with a fresh admin token (dev tokens expire on the virtual clock). */
async function graphWhen(anon: HearthClient, userId: string, done: (g: GraphBody) => boolean): Promise<GraphBody> {
  const admin = await anon.as({ admin: true });
  const r: Reply<GraphBody> = await settled(
    () => admin.call('GET', `/v1/admin/users/${userId}/beliefs?holder=user`),
    (x) => x.status === 200 && done(x.body as GraphBody),
  );
  expect(r.status).toBe(200);
  return r.body;
}

describe("a challenge the user insists against makes the belief's reward correlation negative (scripts/start, Postgres)", () => {
  let hearth: RunningHearth;
  let anon: HearthClient;
  let bus: Bus;

  beforeAll(async () => {
    hearth = await startHearth({ mode: 'all', database: 'postgres' });
    anon = new HearthClient(hearth.url);
    bus = await Bus.connect({ url: await natsUrl(), name: 'challenge-outcomes-e2e', namespace: hearth.namespace, logger: silent, encryption: { kek: LocalKek.forDevelopment(hearth.namespace) } });
  });

  afterAll(async () => {
    await bus?.close();
    expect(await hearth?.stop()).toEqual([0]);
  });

  it('given a harmful belief said over more than a week, when the companion questions it and the user insists, then its 2 h and 24 h outcomes are negative and so is its reward correlation', async () => {
    // given: the belief said three times over eight days
    let me = await onboard(anon);
    const userId = me.userId!;
    const first = randomUUID();
    for (const [i, text] of [HARMFUL, HARMFUL, `Anyway. ${HARMFUL}`].entries()) {
      if (i > 0) expect((await anon.advanceClock(4 * DAY_S)).status).toBe(200);
      me = await anon.as({ userId });
      await sayOk(me, first, text);
    }
    const held = await graphWhen(anon, userId, (g) => g.nodes.some((n) => n.occurrence_count >= 3));
    const harmful = held.nodes.find((n) => n.occurrence_count >= 3)!;

    // when a fresh conversation's reply questions it and the user's next message insists
    const open = randomUUID();
    const asked = await sayOk(me, open, 'I keep going over it in my head.');
    await sayOk(me, open, "That's true, they always do.");
    const g = await graphWhen(anon, userId, (x) => x.challenges.some((c) => c.message_id === asked.body.message_id));
    const challenge = g.challenges.find((c) => c.message_id === asked.body.message_id);
    expect(challenge).toMatchObject({ belief_id: harmful.belief_id });

    // and both horizons pass on the clock
    expect((await anon.advanceClock(2 * HOUR_S + 60)).status).toBe(200);
    expect((await anon.advanceClock(22 * HOUR_S)).status).toBe(200);

    // then trust judged the challenge at both: the user's insistence invalidates it, all the agent's
    const judged = await settled(
      async () => ({ status: 200, body: await queryClients(bus).trust.GetTrust({ userId }) }),
      // Both horizons of this challenge (the one the user's insistence invalidates): another
      // unanswered challenge of the belief may be judged at 2 h before this one is at 24 h.
      (r) =>
        new Set(
          r.body.outcomes
            .filter((o: { beliefId: string; components: { validation: number } }) => o.beliefId === harmful.belief_id && o.components.validation === -1)
            .map((o: { horizon: string }) => o.horizon),
        ).size === 2,
    );
    const outcomes = judged.body.outcomes.filter((o: { beliefId: string }) => o.beliefId === harmful.belief_id);
    expect(new Set(outcomes.map((o: { horizon: string }) => o.horizon))).toEqual(new Set(['2h', '24h']));
    // Of this challenge (another unanswered one may have come with the third statement).
    const mine = outcomes.filter((o: { components: { validation: number } }) => o.components.validation === -1);
    expect(mine).toHaveLength(2);
    for (const o of mine) {
      expect(o.components).toMatchObject({ coherence: 0, stability: 0, validation: -1 });
      expect(o.reward).toBeLessThan(0);
    }
    expect(judged.body.actors.find((a: { actor: string }) => a.actor === 'agent')!.trust).toBeLessThan(0.5);

    // and the belief graph's evaluator reads their mean as the belief's reward correlation
    const now = new Date((await anon.clock()).body.now);
    const mean = outcomes.reduce((s: number, o: { reward: number }) => s + o.reward, 0) / outcomes.length;
    const ctx = await settled(
      async () => ({ status: 200, body: await queryClients(bus).belief.GetBeliefContext(belief.GetBeliefContextRequest.fromPartial({ userId, conversationId: randomUUID(), at: now, challengeWanted: true })) }),
      (r) => (r.body as belief.GetBeliefContextResponse).considered.some((c) => c.beliefId === harmful.belief_id && c.rewardCorrelation < 0),
    );
    const considered = (ctx.body as belief.GetBeliefContextResponse).considered.find((c) => c.beliefId === harmful.belief_id);
    expect(considered!.rewardCorrelation).toBeLessThan(0);
    expect(considered!.rewardCorrelation).toBeCloseTo(mean, 9);
  });
});
