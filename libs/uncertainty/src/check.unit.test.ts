import { extractRulesOnly } from '@hearth/memory-rules';
import { checkMessage, classifyPair, selectSurface, severityOf, type CheckInput } from './check.js';
import { UNCERTAINTY_CONFIG } from './config.js';
import { questionFor } from './phrasing.js';
import type { HeldMemory, UncertaintyRecord } from './types.js';

const AT = new Date('2026-11-20T12:00:00Z');
const MSG = '00000000-0000-4000-8000-000000000001';

function held(over: Partial<HeldMemory> & Pick<HeldMemory, 'memoryId' | 'key' | 'value' | 'type'>): HeldMemory {
  return { confidence: 0.6, status: 'ACTIVE', reliability: 'reliable', extractor: 'heuristic', statements: 1, accessCount: 0, createdAt: AT, lastConfirmedAt: AT, topicIds: [], sourceMessageId: 'm-old', ...over };
}

const LIKE_SUSHI = held({ memoryId: 'like-sushi', type: 'PREFERENCE', key: 'pref:food:sushi', value: 'like|sushi' });
const SEOUL = held({ memoryId: 'seoul', type: 'FACT', key: 'fact:current_city', value: 'seoul' });

function check(text: string, over: Partial<CheckInput> = {}) {
  return checkMessage({
    messageId: MSG,
    text,
    candidates: extractRulesOnly(text, AT),
    held: [LIKE_SUSHI, SEOUL],
    open: [],
    answering: null,
    tolerance: 0.5,
    at: AT,
    newId: (key) => `u:${key}`,
    ...over,
  });
}

function openFlip(over: Partial<UncertaintyRecord> = {}): UncertaintyRecord {
  return {
    uncertaintyId: 'u1',
    type: 'contradiction',
    severity: 'critical',
    state: 'open',
    key: 'pref:food:sushi',
    sides: [
      { kind: 'memory', id: 'like-sushi', store: 'trait', key: 'pref:food:sushi', value: 'like|sushi', confidence: 0.6, source: 'explicit', sourceMessageId: 'm-old', statements: 1 },
      { kind: 'memory', id: 'hate-sushi', store: 'trait', key: 'pref:food:sushi', value: 'dislike|sushi', confidence: 0.55, source: 'explicit', sourceMessageId: 'm-flip', statements: 1 },
    ],
    surfaceCues: ['sushi', 'food', 'eat', 'dinner'],
    surfacedCount: 0,
    steppedDown: false,
    usedPhrasingIds: [],
    sourceMessageIds: ['m-old', 'm-flip'],
    createdAt: AT,
    ...over,
  };
}

const HATE_SUSHI_ACTIVE = held({ memoryId: 'hate-sushi', type: 'PREFERENCE', key: 'pref:food:sushi', value: 'dislike|sushi', confidence: 0.55, sourceMessageId: 'm-flip' });

describe('Context 1: "Can these both be true simultaneously?"', () => {
  it('a stance flip without a temporal cue is an open contradiction, flagged to the reply, the old stance never asserted', () => {
    const d = check('I hate sushi');
    expect(d.verdict).toBe('contradiction');
    expect(d.contradictedMemoryIds).toEqual(['like-sushi']);
    expect(d.record).toMatchObject({ type: 'contradiction', state: 'open', severity: 'critical', detectionContext: 'ingestion', temporalSignal: false });
    expect(d.record!.sides.map((s) => [s.id, s.value])).toEqual([
      ['like-sushi', 'like|sushi'],
      ['', 'dislike|sushi'],
    ]);
    expect(d.reliability).toEqual([expect.objectContaining({ to: 'contradicted', side: expect.objectContaining({ id: 'like-sushi' }) })]);
    expect(d.surface).toMatchObject({ reason: 'contradiction', heldValue: 'like|sushi', statedValue: 'dislike|sushi' });
    // The spec's own weave: "I thought you loved sushi — what changed?"
    expect(questionFor(d.surface!, 0).text).toBe('I thought you loved sushi — what changed?');
  });

  it('a moved city is a temporal change: superseded silently, recorded resolved, no question', () => {
    const d = check('I moved to Busan last month');
    expect(d.verdict).toBe('temporal_change');
    expect(d.record).toMatchObject({ state: 'resolved', strategy: 'temporal_supersede', temporalSignal: true });
    expect(d.reliability).toEqual([expect.objectContaining({ to: 'superseded', side: expect.objectContaining({ id: 'seoul' }) })]);
    expect(d.contradictedMemoryIds).toEqual(['seoul']);
    expect(d.surface).toBeNull();
    expect(d.tolerance).toBeNull();
  });

  it('an explicit correction is applied silently (user_clarified) and lowers tolerance by 0.03', () => {
    const d = check('Actually I live in Busan, not Seoul');
    expect(d.verdict).toBe('correction');
    expect(d.record).toMatchObject({ state: 'resolved', strategy: 'user_clarified', temporalSignal: false });
    expect(d.contradictedMemoryIds).toEqual(['seoul']);
    expect(d.surface).toBeNull();
    expect(d.tolerance).toEqual({ from: 0.5, to: 0.47, reason: 'correction' });
  });

  it('a restatement is a reinforcement: +0.01 tolerance, nothing recorded', () => {
    const d = check('I live in Seoul');
    expect(d.verdict).toBe('reinforcement');
    expect(d.record).toBeNull();
    expect(d.contradictedMemoryIds).toEqual([]);
    expect(d.tolerance).toEqual({ from: 0.5, to: 0.51, reason: 'reinforcement' });
  });

  it('tolerance stays in [0.2, 0.8]', () => {
    expect(check('Actually I live in Busan, not Seoul', { tolerance: 0.21 }).tolerance!.to).toBe(0.2);
    expect(check('I live in Seoul', { tolerance: 0.8 }).tolerance!.to).toBe(0.8);
  });

  it('"likes Honda" and "likes Toyota" can co-exist: no match, no record', () => {
    const honda = held({ memoryId: 'honda', type: 'PREFERENCE', key: 'pref:hobby:honda', value: 'like|honda' });
    const d = check('I like toyota', { held: [honda] });
    expect(d.matches).toEqual([]);
    expect(d.verdict).toBe('none');
  });

  it('"lives in Canada" and "lives in China" cannot: a singleton fact with another value and no cue is a contradiction', () => {
    const canada = held({ memoryId: 'canada', type: 'FACT', key: 'fact:current_city', value: 'toronto' });
    expect(classifyPair('I live in Beijing', { type: 'FACT', key: 'fact:current_city', value: 'beijing', extractor: 'heuristic' }, canada).classification).toBe('true_contradiction');
    expect(classifyPair('I live in Beijing now', { type: 'FACT', key: 'fact:current_city', value: 'beijing', extractor: 'heuristic' }, canada).classification).toBe('temporal_change');
  });

  it.each(['moved', 'switched', 'now', 'used to', 'anymore', 'no longer'])('the temporal cue "%s" makes a change silent', (cue) => {
    const text = cue === 'used to' ? 'I used to like sushi but I hate sushi' : cue === 'moved' ? 'I moved to Busan' : cue === 'switched' ? 'I switched, I live in Busan' : cue === 'now' ? 'I hate sushi now' : cue === 'anymore' ? "I don't like sushi anymore" : 'I no longer like sushi, I hate sushi';
    const d = check(text);
    expect(d.verdict).toBe('temporal_change');
    expect(d.surface).toBeNull();
  });

  it('a faded inferred memory does not stand against an explicit statement (confidence dominance > 2×)', () => {
    const inferred = held({ ...LIKE_SUSHI, extractor: 'offline', confidence: 0.6, lastConfirmedAt: new Date(AT.getTime() - 400 * 86_400_000) });
    const d = check('I hate sushi', { held: [inferred] });
    expect(d.record).toMatchObject({ state: 'resolved', strategy: 'confidence_dominance' });
    expect(d.reliability[0]).toMatchObject({ to: 'uncertain' });
    expect(d.surface).toBeNull();
  });
});

describe('resolution', () => {
  it('reinforcing one side past 2× the other resolves by evidence (the restated side wins)', () => {
    const d = check('I hate sushi', { held: [HATE_SUSHI_ACTIVE], open: [openFlip()] });
    expect(d.resolutions).toEqual([expect.objectContaining({ uncertaintyId: 'u1', strategy: 'evidence_resolved', winnerId: 'hate-sushi', loserId: 'like-sushi' })]);
    expect(d.reliability.map((r) => [r.side.id, r.to])).toEqual([
      ['hate-sushi', 'reliable'],
      ['like-sushi', 'superseded'],
    ]);
  });

  it('a side stated often before needs more than one restatement of the other', () => {
    const strong = openFlip();
    strong.sides[0] = { ...strong.sides[0]!, statements: 3, confidence: 0.9 };
    expect(check('I hate sushi', { held: [HATE_SUSHI_ACTIVE], open: [strong] }).resolutions).toEqual([]);
  });

  it('the answer to the question the previous reply asked resolves it (user_clarified)', () => {
    const u = openFlip({ state: 'surfaced', surfacedCount: 1 });
    const d = check('honestly I still love it', { held: [HATE_SUSHI_ACTIVE], open: [u], answering: u });
    expect(d.verdict).toBe('answer');
    expect(d.resolutions).toEqual([expect.objectContaining({ strategy: 'user_clarified', winnerId: 'like-sushi', loserId: 'hate-sushi' })]);
    expect(d.contradictedMemoryIds).toEqual(['hate-sushi']);
  });

  it('after three surfacings without an answer it steps down and is not raised again (anti-nag)', () => {
    const u = openFlip({ state: 'surfaced', surfacedCount: 3 });
    const d = check('we had a long day at the office', { held: [HATE_SUSHI_ACTIVE], open: [u], answering: u });
    expect(d.steppedDown).toEqual({ uncertaintyId: 'u1', from: 'critical', to: 'high', surfacedCount: 3 });
    expect(selectSurface('what should we eat for dinner', [u], 0.5)).toBeNull();
  });
});

describe('surfacing', () => {
  it('only in a matching context', () => {
    expect(selectSurface('what should we eat for dinner tonight', [openFlip()], 0.5)).toMatchObject({ uncertaintyId: 'u1', reason: 'surfacing' });
    expect(selectSurface('I went for a run this morning', [openFlip()], 0.5)).toBeNull();
  });

  it('tolerance sets the threshold: a medium one is raised at 0.5, not at 0.8', () => {
    const medium = openFlip({ severity: 'medium' });
    expect(selectSurface('dinner?', [medium], 0.5)).not.toBeNull();
    expect(selectSurface('dinner?', [medium], 0.8)).toBeNull();
  });

  it('is phrased afresh each time', () => {
    const plan = selectSurface('dinner?', [openFlip({ usedPhrasingIds: ['which'] })], 0.5)!;
    const q = questionFor(plan, 0);
    expect(q.phrasingId).not.toBe('which');
    expect(q.text).toMatch(/\?$/);
    expect(q.text).toContain('you love sushi');
    expect(q.text).toContain("you're not into sushi");
  });

  it('every phrasing names the values only inside a question', () => {
    const just = { uncertaintyId: 'u', reason: 'contradiction' as const, key: 'fact:current_city', heldValue: 'seoul', statedValue: 'busan', severity: 'critical' as const, surfacedCount: 0, usedPhrasingIds: [] };
    const later = { ...just, reason: 'surfacing' as const };
    for (const plan of [just, later]) {
      for (let seed = 0; seed < 3; seed++) {
        const q = questionFor({ ...plan, usedPhrasingIds: [] }, seed);
        for (const sentence of q.text.match(/[^.?!]+[.?!]/g) ?? []) if (/seoul|busan/i.test(sentence)) expect(sentence.trim()).toMatch(/\?$/);
      }
    }
  });
});

describe('severity (heuristic table)', () => {
  it.each([
    ['trait', 'trait', 'critical'],
    ['concept', 'trait', 'high'],
    ['concept', 'concept', 'high'],
    ['episode', 'trait', 'medium'],
    ['episode', 'concept', 'medium'],
    ['episode', 'episode', 'low'],
  ] as const)('%s vs %s is %s', (a, b, s) => {
    expect(severityOf(a, b)).toBe(s);
    expect(severityOf(b, a)).toBe(s);
  });

  it('a solo uncertainty is low', () => {
    expect(severityOf('trait', null)).toBe('low');
    expect(UNCERTAINTY_CONFIG.maxSurfacings).toBe(3);
  });
});
