import { isStalePlan, StatementNames } from './prepared.js';

describe('StatementNames', () => {
  it('names each text once, and none past the limit', () => {
    const names = new StatementNames(2);
    const a = names.nameOf('select 1 where $1');
    expect(names.nameOf('select 1 where $1')).toBe(a);
    const b = names.nameOf('select 2 where $1');
    expect(b).not.toBe(a);
    expect(names.nameOf('select 3 where $1')).toBeUndefined();
    expect(names.size).toBe(2);
  });

  it('tells a stale plan from other errors', () => {
    expect(isStalePlan({ code: '0A000', message: 'cached plan must not change result type' })).toBe(true);
    expect(isStalePlan({ code: '0A000', message: 'something else' })).toBe(false);
    expect(isStalePlan(new Error('cached plan must not change result type'))).toBe(false);
  });
});
