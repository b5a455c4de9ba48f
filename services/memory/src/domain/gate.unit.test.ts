import { llmReasons, type GateInput } from './gate.js';

const AT = new Date('2026-11-10T12:00:00Z');
const base: GateInput = { text: 'I love sushi', valence: 0.2, tags: ['positive'], heuristicKeys: ['pref:food:sushi'], lastSeen: new Map(), at: AT };

describe('llmReasons (turn-pipeline §12.2)', () => {
  it('runs the heuristic alone for a short, calm message with a new key', () => {
    expect(llmReasons(base)).toEqual([]);
  });

  it('fires at 200 characters, not 199', () => {
    expect(llmReasons({ ...base, text: 'x'.repeat(199) })).toEqual([]);
    expect(llmReasons({ ...base, text: 'x'.repeat(200) })).toEqual(['length']);
    expect(llmReasons({ ...base, text: '가'.repeat(200) })).toEqual(['length']);
  });

  it('fires at |valence| 0.6 either way, or a strong emotion tag', () => {
    expect(llmReasons({ ...base, valence: -0.6 })).toEqual(['emotion']);
    expect(llmReasons({ ...base, valence: 0.59 })).toEqual([]);
    expect(llmReasons({ ...base, tags: ['strong_negative'] })).toEqual(['emotion']);
  });

  it('fires when a key seen within the last 7 days appears again, not after', () => {
    const sixDays = new Map([['pref:food:sushi', new Date(AT.getTime() - 6 * 86_400_000)]]);
    const eightDays = new Map([['pref:food:sushi', new Date(AT.getTime() - 8 * 86_400_000)]]);
    expect(llmReasons({ ...base, lastSeen: sixDays })).toEqual(['repeat_key']);
    expect(llmReasons({ ...base, lastSeen: eightDays })).toEqual([]);
  });
});
