import { isSensitive, sensitiveGate, type SurfacedMemory } from './sensitive.js';

const mem = (memoryId: string, type: string, key: string, topicIds: string[] = []): SurfacedMemory => ({ memoryId, type, key, value: 'v', topicIds });

const OCCUPATION = mem('occ', 'FACT', 'fact:occupation');
const HOME_CITY = mem('city', 'FACT', 'fact:home_city');
const LANGUAGE = mem('lang', 'FACT', 'fact:language_primary');
const MOOD = mem('mood', 'EMOTIONAL_PATTERN', 'emotion:baseline_mood');
const BREAKUP = mem('breakup', 'RELATIONSHIP_EVENT', 'event:relationship:2026_10:broke_up', ['RELATIONSHIPS']);
const SURGERY = mem('surgery', 'RELATIONSHIP_EVENT', 'event:health:2026_09:knee_surgery');
const TRIP = mem('trip', 'RELATIONSHIP_EVENT', 'event:travel:2026_08:jeju_trip', ['TRAVEL']);
const DEBT = mem('debt', 'PREFERENCE', 'pref:hobby:budgeting', ['PERSONAL_FINANCE']);
const SUSHI = mem('sushi', 'PREFERENCE', 'pref:food:sushi');
const ANXIETY = mem('anxiety', 'FACT', 'fact:occupation', ['MENTAL_HEALTH']);

describe('isSensitive (turn-pipeline §14.6)', () => {
  it.each([
    [OCCUPATION, false, false],
    [HOME_CITY, false, true],
    [LANGUAGE, false, true],
    [MOOD, false, true],
    [BREAKUP, false, true],
    [SURGERY, true, true],
    [TRIP, false, false],
    [DEBT, true, true],
    [SUSHI, false, false],
    [ANXIETY, true, true],
    [mem('odd', 'RELATIONSHIP_EVENT', 'something_else'), false, true],
    [mem('fam', 'RELATIONSHIP_EVENT', 'event:other:2026_01:x', ['FAMILY']), false, true],
  ])('%j: chat %p, retention %p', (m, chat, retention) => {
    expect(isSensitive(m, 'chat')).toBe(chat);
    expect(isSensitive(m, 'retention')).toBe(retention);
  });
});

describe('sensitiveGate (turn-pipeline §10 item 5, §14.6)', () => {
  it('passes ordinary memories in chat and retention', () => {
    expect(sensitiveGate([OCCUPATION, SUSHI], [], 'chat').pass).toBe(true);
    expect(sensitiveGate([OCCUPATION], [], 'retention').pass).toBe(true);
  });

  it('fails a sensitive-topic memory in chat unless its topic is user-initiated this turn', () => {
    expect(sensitiveGate([DEBT], [], 'chat').pass).toBe(false);
    expect(sensitiveGate([DEBT], ['FAMILY'], 'chat').pass).toBe(false);
    expect(sensitiveGate([DEBT], ['PERSONAL_FINANCE'], 'chat').pass).toBe(true);
  });

  it('treats an event:health key as MEDICAL_HEALTH in chat', () => {
    expect(sensitiveGate([SURGERY], [], 'chat').pass).toBe(false);
    expect(sensitiveGate([SURGERY], ['MEDICAL_HEALTH'], 'chat').pass).toBe(true);
  });

  it('lets chat surface retention-only sensitive memories (mood, breakup, home city)', () => {
    expect(sensitiveGate([MOOD, BREAKUP, HOME_CITY], [], 'chat').pass).toBe(true);
  });

  it('fails any sensitive memory in retention, even when the topic was user-initiated', () => {
    expect(sensitiveGate([DEBT], ['PERSONAL_FINANCE'], 'retention').pass).toBe(false);
    expect(sensitiveGate([HOME_CITY], [], 'retention').pass).toBe(false);
    expect(sensitiveGate([MOOD], [], 'retention').pass).toBe(false);
  });

  it('names the violating memories', () => {
    expect(sensitiveGate([OCCUPATION, HOME_CITY], [], 'retention')).toMatchObject({
      pass: false,
      detail: 'uninvited sensitive memories: city (FACT fact:home_city) (retention)',
      measured: { sensitive: 'city', violations: 1 },
    });
  });
});
