import { QueryError, type Bus } from '@hearth/bus';
import { uncertainty } from '@hearth/proto';
import { createUncertaintyClient, statusOf } from './uncertainty.js';

const named = (name: string) => Object.assign(new Error(name), { name });
const REQUEST = uncertainty.CheckMessageRequest.fromPartial({ userId: 'u1', messageId: 'm1', text: 'I hate sushi' });

/** A bus whose queries all end as `answer` says. */
function busAnswering(answer: () => Promise<Uint8Array>): Bus {
  return { query: answer } as unknown as Bus;
}

describe('the uncertainty client (issue 17)', () => {
  it('tells a late answer (timeout) from none at all or a failed one (unavailable)', () => {
    expect(statusOf(new QueryError('QUERY_UNANSWERED', 'uncertainty.CheckMessage did not answer: timeout', { cause: named('TimeoutError') }))).toBe('timeout');
    expect(statusOf(new QueryError('QUERY_UNANSWERED', "no responders: 'x'", { cause: named('RequestError') }))).toBe('unavailable');
    expect(statusOf(new QueryError('QUERY_FAILED', 'uncertainty.CheckMessage: boom'))).toBe('unavailable');
    expect(statusOf(new Error('anything else'))).toBe('unavailable');
  });

  it('answers with the service\'s response when it answers in time', async () => {
    const response = uncertainty.CheckMessageResponse.fromPartial({ verdict: 'contradiction', contradictedMemoryIds: ['mem1'] });
    const client = createUncertaintyClient(busAnswering(() => Promise.resolve(uncertainty.CheckMessageResponse.encode(response).finish())), { timeoutMs: 600, reliabilityTimeoutMs: 600 });
    await expect(client.check(REQUEST)).resolves.toMatchObject({ status: 'ok', error: '', response: { verdict: 'contradiction', contradictedMemoryIds: ['mem1'] } });
  });

  it('never throws: a timeout, a failure, even an answer that does not decode, is a status with an empty response', async () => {
    const warnings: unknown[] = [];
    const logger = { warn: (o: unknown) => warnings.push(o) } as never;
    const late = createUncertaintyClient(busAnswering(() => Promise.reject(new QueryError('QUERY_UNANSWERED', 'late', { cause: named('TimeoutError') }))), { timeoutMs: 1, reliabilityTimeoutMs: 1, logger });
    await expect(late.check(REQUEST)).resolves.toMatchObject({ status: 'timeout', error: 'late', response: { verdict: '', contradictedMemoryIds: [], surface: undefined } });
    await expect(late.check(REQUEST)).resolves.toMatchObject({ status: 'timeout' });
    await expect(late.reliability({ userId: 'u1', memoryIds: ['mem1'] })).resolves.toEqual({ status: 'timeout', error: 'late', reliability: [] });
    // warned once per query and kind, not once per turn
    expect(warnings).toHaveLength(2);
    const garbled = createUncertaintyClient(busAnswering(() => Promise.resolve(new Uint8Array([0xff, 0xff, 0xff]))), { timeoutMs: 1, reliabilityTimeoutMs: 1 });
    await expect(garbled.check(REQUEST)).resolves.toMatchObject({ status: 'unavailable' });
  });
});
