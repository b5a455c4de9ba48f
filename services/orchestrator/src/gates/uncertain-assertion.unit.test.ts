import { questionFor } from '@hearth/uncertainty';
import { namedBy, uncertainAssertionGate, type WithheldValue } from './uncertain-assertion.js';

const SUSHI: WithheldValue = { key: 'pref:food:sushi', value: 'like|sushi' };
const CITY: WithheldValue = { key: 'fact:current_city', value: 'seoul' };
const TOWN: WithheldValue = { key: 'fact:home_city', value: 'new_york' };

describe('uncertain_assertion: a withheld memory is never stated (issue 17)', () => {
  it('fails a statement that names a withheld value: "sushi" for like|sushi, "seoul" for current_city', () => {
    const v = uncertainAssertionGate("Got it. I remember you like sushi, so that's a surprise.", [SUSHI, CITY]);
    expect(v).toMatchObject({ gate: 'uncertain_assertion', pass: false, measured: { withheld: 2, named: 1, surface: 0, question: 0 } });
    expect(v.detail).toContain('"sushi" (pref:food:sushi)');
    expect(uncertainAssertionGate('Seoul must be lovely this time of year.', [SUSHI, CITY])).toMatchObject({ pass: false, measured: { named: 1 } });
  });

  it('passes a question that names it: asking is not asserting', () => {
    expect(uncertainAssertionGate('Got it. Wait, do you not like sushi anymore?', [SUSHI]).pass).toBe(true);
    expect(uncertainAssertionGate('Okay. Are you still in Seoul? 🙂', [CITY]).pass).toBe(true);
  });

  it('passes the woven question whole, statement clauses of its phrasing included', () => {
    for (let seed = 0; seed < 6; seed++) {
      const q = questionFor({ uncertaintyId: 'u1', reason: seed % 2 ? 'surfacing' : 'contradiction', key: CITY.key, heldValue: 'seoul', statedValue: 'busan', severity: 'critical', surfacedCount: 0, usedPhrasingIds: [] }, seed).text;
      const reply = `Okay, I hear you. ${q}`;
      expect([q, uncertainAssertionGate(reply, [], { sides: [CITY], questions: ['Something else?', q] }).pass]).toEqual([q, true]);
      // Without being told it is the woven question, a phrasing with a statement in it would fail.
      if (/\.\s/.test(q)) expect(uncertainAssertionGate(reply, [CITY]).pass).toBe(false);
    }
  });

  it('finds the woven question in a lowercased reply, and still fails a statement beside it', () => {
    const q = 'Oh? I had it that you lived in Seoul. What changed?';
    const surface = { sides: [CITY], questions: [q] };
    expect(uncertainAssertionGate(`okay. ${q.toLowerCase()}`, [], surface)).toMatchObject({ pass: true, measured: { surface: 1, question: 1 } });
    expect(uncertainAssertionGate(`Seoul is great. ${q}`, [], surface)).toMatchObject({ pass: false, measured: { surface: 1, question: 1 } });
    // the surface's sides are withheld even when no retrieved memory was
    expect(uncertainAssertionGate('Seoul is great.', [], surface)).toMatchObject({ pass: false, measured: { withheld: 1, surface: 1, question: 0 } });
  });

  it('matches whole words and phrases only, and passes with nothing withheld', () => {
    expect(uncertainAssertionGate('I love a good sushi-free dinner.', [SUSHI]).pass).toBe(false);
    expect(uncertainAssertionGate('Seoulful music is the best.', [CITY]).pass).toBe(true);
    expect(uncertainAssertionGate('New York sounds busy.', [TOWN]).pass).toBe(false);
    expect(uncertainAssertionGate('I knew you would say that.', [TOWN]).pass).toBe(true);
    expect(uncertainAssertionGate('Anything at all about sushi.', [])).toMatchObject({ pass: true, measured: { withheld: 0 } });
  });

  it('names a value by its item words', () => {
    expect(namedBy('like|new_york')).toBe('new york');
    expect(namedBy('dislike|Sushi')).toBe('sushi');
    expect(namedBy('Seoul')).toBe('seoul');
  });
});
