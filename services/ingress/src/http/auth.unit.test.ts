import { ApiHttpException, toApiError } from '@hearth/host';
import { ProjectionBehindError } from '@hearth/store';
import { IngressError } from '../app/errors.js';
import { api } from './auth.js';

async function answerOf(fn: () => Promise<unknown>): Promise<{ status: number; body: unknown; mapped: boolean }> {
  try {
    await api(fn);
  } catch (err) {
    return { ...toApiError(err), mapped: err instanceof ApiHttpException };
  }
  throw new Error('expected api() to throw');
}

describe('api(): application errors as API errors', () => {
  it('answers an IngressError with its status, code, message and details', async () => {
    const answer = await answerOf(() => Promise.reject(new IngressError(409, 'CONFLICT_X', 'taken', { field: 'a' })));

    expect(answer).toEqual({ status: 409, body: { error: { code: 'CONFLICT_X', message: 'taken', details: { field: 'a' } } }, mapped: true });
  });

  it('answers a read model behind the caller\'s chain (ProjectionBehindError) with 503 "catching up", not the generic dependency 503', async () => {
    const answer = await answerOf(() => Promise.reject(new ProjectionBehindError('users', 'hearth.ingress.u1', 7)));

    expect(answer).toEqual({ status: 503, body: { error: { code: 'UNAVAILABLE', message: 'user state is catching up; retry shortly' } }, mapped: true });
  });

  it('leaves any other error as it is', async () => {
    const boom = new Error('boom');

    await expect(api(() => Promise.reject(boom))).rejects.toBe(boom);
  });

  it('passes a result through', async () => {
    await expect(api(() => Promise.resolve(42))).resolves.toBe(42);
  });
});
