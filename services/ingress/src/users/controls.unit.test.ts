import { applyControlsPatch, controlsPatchSchema, DEFAULT_CONTROLS, sameControls, withSuppressedTopics, type ControlsValue } from './controls.js';

const current: ControlsValue = { proactive_messages_enabled: true, mute_until: null, suppressed_topics: ['POLITICS'] };

describe('controls (turn-pipeline §2.7)', () => {
  it('replaces only the fields a PATCH names', () => {
    expect(applyControlsPatch(current, { proactive_messages_enabled: false })).toEqual({ ...current, proactive_messages_enabled: false });
    expect(applyControlsPatch(current, { mute_until: '2026-12-01T09:00:00+09:00' }).mute_until).toBe('2026-12-01T00:00:00.000Z');
    expect(applyControlsPatch({ ...current, mute_until: '2026-12-01T00:00:00.000Z' }, { mute_until: null }).mute_until).toBeNull();
    expect(applyControlsPatch(current, { suppressed_topics: ['RELIGION', 'FAMILY', 'RELIGION'] }).suppressed_topics).toEqual(['FAMILY', 'RELIGION']);
  });

  it('accepts TopicIDs only, at least one field, nothing unknown', () => {
    expect(controlsPatchSchema.safeParse({ suppressed_topics: ['my ex'] }).success).toBe(false);
    expect(controlsPatchSchema.safeParse({}).success).toBe(false);
    expect(controlsPatchSchema.safeParse({ proactive: false }).success).toBe(false);
    expect(controlsPatchSchema.safeParse({ mute_until: 'tomorrow' }).success).toBe(false);
    expect(controlsPatchSchema.safeParse({ mute_until: null }).success).toBe(true);
  });

  it('adds a topic from a correction once, and only a TopicID', () => {
    expect(withSuppressedTopics(current, ['WORK_SCHOOL', 'POLITICS'])?.suppressed_topics).toEqual(['POLITICS', 'WORK_SCHOOL']);
    expect(withSuppressedTopics(current, ['POLITICS'])).toBeNull();
    expect(withSuppressedTopics(current, ['NOT_A_TOPIC'])).toBeNull();
  });

  it('tells equal controls apart from changed ones', () => {
    expect(sameControls(current, { ...current })).toBe(true);
    expect(sameControls(current, DEFAULT_CONTROLS)).toBe(false);
  });
});
