import { isTransientError } from '@hearth/bus';
import { ProjectionBehindError } from './projection.js';

describe('ProjectionBehindError', () => {
  it('names the projection, subject and sequence, and is transient however deep in the cause chain', () => {
    const behind = new ProjectionBehindError('memories', 'hearth.memory.u1', 7);
    expect(behind).toMatchObject({ code: 'PROJECTION_BEHIND', projection: 'memories', subject: 'hearth.memory.u1', seq: 7, name: 'ProjectionBehindError' });
    expect(behind.message).toBe('projection memories has not caught up with hearth.memory.u1#7');
    expect(isTransientError(behind)).toBe(true);
    expect(isTransientError(new Error('reactor failed', { cause: behind }))).toBe(true);
  });
});
