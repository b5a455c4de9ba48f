import type { RunningConsumer } from '@hearth/bus';
import { startEach } from './projection.js';

function consumer(name: string, stopped: string[]): RunningConsumer {
  return { name, isBound: () => true, lag: async () => 0, stop: async () => void stopped.push(name) };
}

describe('startEach: one consumer per source', () => {
  it('given every source starts then it returns their consumers in order and stops none', async () => {
    const stopped: string[] = [];
    const running = await startEach(['a', 'b'], async (s) => consumer(s, stopped));
    expect(running.map((c) => c.name)).toEqual(['a', 'b']);
    expect(stopped).toEqual([]);
  });

  it('given a later source fails to start then the ones started are stopped and the error is thrown', async () => {
    const stopped: string[] = [];
    const start = (s: string) => (s === 'c' ? Promise.reject(new Error('stream not found: c')) : Promise.resolve(consumer(s, stopped)));
    await expect(startEach(['a', 'b', 'c', 'd'], start)).rejects.toThrow('stream not found: c');
    expect(stopped.sort()).toEqual(['a', 'b']);
  });
});
