import { statedValues, withhold, type HeldSnippet } from './withhold.js';

const AT = new Date('2026-11-29T10:00:00Z');
const SUSHI: HeldSnippet = { memoryId: 'm-sushi', type: 'PREFERENCE', memoryKey: 'pref:food:sushi', memoryValue: 'like|sushi', reliability: 'reliable' };
const CITY: HeldSnippet = { memoryId: 'm-city', type: 'FACT', memoryKey: 'fact:current_city', memoryValue: 'Seoul', reliability: 'reliable' };
const JOB: HeldSnippet = { memoryId: 'm-job', type: 'FACT', memoryKey: 'fact:occupation', memoryValue: 'nurse', reliability: '' };
const TRIP: HeldSnippet = { memoryId: 'm-trip', type: 'RELATIONSHIP_EVENT', memoryKey: 'event:travel:2026_10:trip_to_jeju', memoryValue: 'went to jeju with my sister', reliability: 'reliable' };

const ids = (xs: readonly { memory: HeldSnippet }[] | readonly HeldSnippet[]) => xs.map((x) => ('memory' in x ? x.memory.memoryId : x.memoryId));

describe('withhold: what a reply may not assert (issue 17)', () => {
  const guard = (text: string, retrieved: HeldSnippet[] = [SUSHI, CITY, JOB, TRIP]) => withhold({ retrieved, contradictedIds: [], text, at: AT });

  it('withholds like|sushi when the message says "I hate sushi", and nothing else', () => {
    const r = guard('I hate sushi');
    expect(r.withheld).toEqual([{ memory: SUSHI, reason: 'stated_otherwise' }]);
    expect(ids(r.kept)).toEqual(['m-city', 'm-job', 'm-trip']);
  });

  it('keeps like|sushi when the message says "I love sushi" (a restatement)', () => {
    const r = guard('I love sushi');
    expect(r.withheld).toEqual([]);
    expect(ids(r.kept)).toEqual(['m-sushi', 'm-city', 'm-job', 'm-trip']);
  });

  it('withholds current_city = seoul on "Actually I live in Busan, not Seoul" (values compared as stored: case aside)', () => {
    const r = guard('Actually I live in Busan, not Seoul');
    expect(r.withheld).toEqual([{ memory: CITY, reason: 'stated_otherwise' }]);
    expect(guard('I live in Seoul').withheld).toEqual([]);
  });

  it('withholds what uncertainty names as contradicted, whatever the message says', () => {
    const r = withhold({ retrieved: [SUSHI, CITY, TRIP], contradictedIds: ['m-trip', 'not-retrieved'], text: 'what a day', at: AT });
    expect(r.withheld).toEqual([{ memory: TRIP, reason: 'contradicted' }]);
  });

  it('withholds any memory of the key the reply asks about', () => {
    const r = withhold({ retrieved: [SUSHI, CITY], contradictedIds: [], askedKeys: ['fact:current_city'], text: 'what a day', at: AT });
    expect(r.withheld).toEqual([{ memory: CITY, reason: 'asked_about' }]);
    expect(ids(r.kept)).toEqual(['m-sushi']);
  });

  it('withholds a memory whose reliability is uncertain, contradicted or superseded; "" reads as reliable', () => {
    const states = ['uncertain', 'contradicted', 'superseded', 'reliable', ''].map((reliability, i) => ({ ...TRIP, memoryId: `m${i}`, reliability }));
    const r = withhold({ retrieved: states, contradictedIds: [], text: 'hello', at: AT });
    expect(r.withheld.map((w) => [w.memory.memoryId, w.reason])).toEqual([
      ['m0', 'unreliable'],
      ['m1', 'unreliable'],
      ['m2', 'unreliable'],
    ]);
    expect(ids(r.kept)).toEqual(['m3', 'm4']);
  });

  it('gives one reason per memory, uncertainty\'s first', () => {
    const r = withhold({ retrieved: [{ ...SUSHI, reliability: 'contradicted' }], contradictedIds: ['m-sushi'], text: 'I hate sushi', at: AT });
    expect(r.withheld.map((w) => w.reason)).toEqual(['contradicted']);
  });

  it('leaves events and patterns to uncertainty: the rules state no single value for them', () => {
    expect(guard('I went to Busan with my brother last week').withheld).toEqual([]);
  });

  it('reads nothing into an empty message', () => {
    expect(statedValues('', AT).size).toBe(0);
    expect(statedValues('I hate sushi', AT)).toEqual(new Map([['pref:food:sushi', new Set(['dislike|sushi'])]]));
  });
});
