import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql, type Compilable, type QueryCompiler } from 'kysely';
import { CachingQueryCompiler } from './compile-cache.js';

interface Db {
  items: { id: string; user_id: string; n: number; tags: string[]; body: unknown; at: Date };
  positions: { projection: string; subject: string; last_seq: number };
}

function kyselyWith(compiler: QueryCompiler): Kysely<Db> {
  return new Kysely<Db>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => compiler,
    },
  });
}

/** Statements of the kinds services send, each built from the values it is given. */
const statements: Record<string, (db: Kysely<Db>, v: { s: string; n: number; list: string[] }) => Compilable> = {
  'select with IN and limit': (db, v) => db.selectFrom('items').select(['id', 'n']).where('user_id', '=', v.s).where('id', 'in', v.list).orderBy('n', 'desc').limit(v.n),
  'join, alias and subquery': (db, v) =>
    db
      .selectFrom('items as i')
      .innerJoin('positions as p', 'p.subject', 'i.user_id')
      .select(['i.id', 'p.last_seq'])
      .where('p.projection', '=', v.s)
      .where('i.n', '>', (eb) => eb.selectFrom('positions').select(eb.fn.max('last_seq').as('m')).where('subject', '=', v.s)),
  'multi-row upsert with greatest': (db, v) =>
    db
      .insertInto('positions')
      .values(v.list.map((subject, i) => ({ projection: v.s, subject, last_seq: v.n + i })))
      .onConflict((oc) => oc.columns(['projection', 'subject']).doUpdateSet((eb) => ({ last_seq: eb.fn('greatest', [eb.ref('positions.last_seq'), eb.ref('excluded.last_seq')]) }))),
  'CTE over a locked select, union all': (db, v) =>
    db
      .with('pos', (q) => q.selectFrom('positions').select(['subject', 'last_seq']).where('projection', '=', v.s).where('subject', 'in', v.list).forUpdate())
      .selectFrom('pos')
      .select([sql<string>`'p'`.as('kind'), 'subject as key'])
      .unionAll(db.selectFrom('items').select([sql<string>`'e'`.as('kind'), 'user_id as key']).where('user_id', 'in', v.list)),
  'update with a case and returning': (db, v) =>
    db
      .updateTable('items')
      .set((eb) => ({ n: eb.case().when('n', '<', v.n).then(v.n).else(eb.ref('n')).end(), body: JSON.stringify({ s: v.s }) }))
      .where('id', '=', v.s)
      .returning(['id', 'n']),
  'delete by tuple list': (db, v) => db.deleteFrom('items').where('user_id', '=', v.s).where('tags', '@>', sql<string[]>`${v.list}`),
  'raw template with an identifier and a literal': (db, v) => ({
    compile: () => sql`select ${sql.lit(v.n)} as lit, ${v.s} as val from ${sql.table('items')} where n = any(${v.list})`.compile(db),
  }),
  'immediate values are part of the shape': (db, v) => db.selectFrom('items').select(sql.lit(v.s).as('x')).where('n', '=', v.n),
};

const draws = [
  { s: 'u1', n: 3, list: ['a', 'b'] },
  { s: "o'brien", n: 7, list: ['c', 'd'] },
  { s: 'u1', n: 3, list: ['a', 'b', 'c'] },
  { s: 'x$1', n: -2, list: ['z'] },
];

describe('CachingQueryCompiler', () => {
  it.each(Object.keys(statements))('%s: the same text and parameters as kysely with withSchema, cached or not', (name) => {
    const cached = new CachingQueryCompiler('svc');
    const db = kyselyWith(cached);
    const reference = kyselyWith(new PostgresQueryCompiler()).withSchema('svc');
    // Each draw twice: the first may learn the shape, the second must reuse it.
    for (const v of [...draws, ...draws]) {
      const got = statements[name]!(db, v).compile();
      const want = statements[name]!(reference, v).compile();
      expect({ sql: got.sql, parameters: got.parameters }).toEqual({ sql: want.sql, parameters: want.parameters });
    }
  });

  it('learns a shape once and keeps one per IN-list length', () => {
    const cached = new CachingQueryCompiler('svc');
    const db = kyselyWith(cached);
    const q = (list: string[], s: string) => db.selectFrom('items').select('id').where('user_id', '=', s).where('id', 'in', list).compile();
    q(['a'], 'u1');
    q(['b'], 'u2');
    expect(cached.size).toBe(1);
    const two = q(['a', 'b'], 'u3');
    expect(cached.size).toBe(2);
    expect(two.parameters).toEqual(['u3', 'a', 'b']);
    expect(two.sql).toBe('select "id" from "svc"."items" where "user_id" = $1 and "id" in ($2, $3)');
  });

  it('tells immediate values apart, which are written into the text', () => {
    const db = kyselyWith(new CachingQueryCompiler(undefined));
    const a = db.selectFrom('items').select(sql.lit('a').as('x')).compile();
    const b = db.selectFrom('items').select(sql.lit('b').as('x')).compile();
    expect(a.sql).toContain("'a'");
    expect(b.sql).toContain("'b'");
  });

  it('stops keeping shapes past its limit, and still compiles them right', () => {
    const cached = new CachingQueryCompiler('svc', 2);
    const db = kyselyWith(cached);
    for (let n = 1; n <= 4; n++) {
      const list = Array.from({ length: n }, (_, i) => `id${i}`);
      const c = db.selectFrom('items').select('id').where('id', 'in', list).compile();
      expect(c.parameters).toEqual(list);
      expect(c.sql).toBe(`select "id" from "svc"."items" where "id" in (${list.map((_, i) => `$${i + 1}`).join(', ')})`);
    }
    expect(cached.size).toBe(2);
  });

  it('compiles DDL afresh', () => {
    const cached = new CachingQueryCompiler('svc');
    const db = kyselyWith(cached);
    const c = db.schema.createTable('t').addColumn('n', 'integer', (col) => col.defaultTo(5)).compile();
    expect(c.sql).toBe('create table "svc"."t" ("n" integer default 5)');
    expect(cached.size).toBe(0);
  });
});
