import { EventEmitter } from 'node:events';
import type pg from 'pg';
import { QueryCounter } from './probes.js';

function fakeClient(): pg.PoolClient {
  return { query: (..._args: unknown[]) => Promise.resolve({ rows: [] }) } as unknown as pg.PoolClient;
}

describe('QueryCounter', () => {
  it('counts statements by text: parameter lists folded, the namespace left out of schema names', async () => {
    const pool = new EventEmitter() as unknown as pg.Pool;
    const counter = new QueryCounter(pool, 'bench_ab12');
    const client = fakeClient();
    (pool as unknown as EventEmitter).emit('acquire', client);
    counter.start();
    await client.query('begin');
    await client.query('select "id" from "bench_ab12_memory"."memories" where "user_id" = $1 and "id" in ($2, $3)', ['u', 'a', 'b']);
    await client.query('select "id" from "bench_ab12_memory"."memories" where "user_id" = $1 and "id" in ($2)', ['u', 'a']);
    await client.query('insert into "bench_ab12_ingress"."t" ("a", "b") values ($1, $2), ($3, $4), ($5, $6)', [1, 2, 3, 4, 5, 6]);
    await client.query('commit');
    const counts = counter.stop();
    expect(counts.statements).toBe(5);
    expect(counter.statementTexts()).toEqual([
      { text: 'select "id" from "memory"."memories" where "user_id" = $… and "id" in ($…)', count: 2 },
      { text: 'begin', count: 1 },
      { text: 'commit', count: 1 },
      { text: 'insert into "ingress"."t" ("a", "b") values ($…), …', count: 1 },
    ]);
    // Counting again starts from nothing.
    counter.start();
    expect(counter.statementTexts()).toEqual([]);
  });
});
