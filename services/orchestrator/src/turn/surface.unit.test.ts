import type { uncertainty } from '@hearth/proto';
import { questionFor } from '@hearth/uncertainty';
import { OFFLINE_PROVIDER } from '../config.js';
import { carriedQuestion, questionsFor, surfacePlanOf, surfaceSides, uncertaintyPromptOf } from './surface.js';

const CITY: uncertainty.Surface = {
  uncertaintyId: 'u1',
  reason: 'contradiction',
  memoryKey: 'fact:current_city',
  heldValue: 'seoul',
  statedValue: 'busan',
  severity: 'critical',
  surfacedCount: 0,
  usedPhrasingIds: [],
};
const OLDER: uncertainty.Surface = { ...CITY, reason: 'surfacing', surfacedCount: 1, usedPhrasingIds: ['which'] };

describe('what a turn does with a surface (issue 17)', () => {
  it("offers the question in distinct phrasings, the turn's own first, none already used for it", () => {
    for (let seed = 0; seed < 5; seed++) {
      const qs = questionsFor(CITY, seed);
      expect(qs[0]).toEqual(questionFor(surfacePlanOf(CITY), seed));
      expect(new Set(qs.map((q) => q.phrasingId)).size).toBe(qs.length);
      expect(qs).toHaveLength(3);
    }
    const older = questionsFor(OLDER, 0);
    expect(older.map((q) => q.phrasingId).sort()).toEqual(['check', 'two_notes']);
  });

  it('withholds the held value of a contradiction, and both notes of an older one', () => {
    expect(surfaceSides(CITY)).toEqual([{ key: 'fact:current_city', value: 'seoul' }]);
    expect(surfaceSides(OLDER)).toEqual([
      { key: 'fact:current_city', value: 'seoul' },
      { key: 'fact:current_city', value: 'busan' },
    ]);
  });

  it('tells the LLM what it held and what it hears now, in clauses', () => {
    const q = questionsFor(CITY, 0)[0]!;
    expect(uncertaintyPromptOf(CITY, q)).toEqual({ reason: 'contradiction', held: 'you lived in Seoul', stated: 'you live in Busan', question: q.text });
    expect(uncertaintyPromptOf(OLDER, q)).toMatchObject({ reason: 'surfacing', held: 'you live in Seoul', stated: 'you live in Busan' });
  });

  it('counts the question as carried only when the reply carries it', () => {
    const qs = questionsFor(CITY, 0);
    const offline = (text: string, outcome = 'draft') => carriedQuestion(qs, { text, outcome, provider: OFFLINE_PROVIDER.provider });
    // the offline render: the phrasing its text holds (case aside)
    expect(offline(`Okay. ${qs[1]!.text.toLowerCase()}`)).toEqual(qs[1]);
    expect(offline('Okay. How was your day?')).toBeNull();
    // an LLM asked in its own words: its reply stands for the first phrasing
    expect(carriedQuestion(qs, { text: 'Wait, did you move?', outcome: 'rewrite', provider: 'openai-compatible' })).toEqual(qs[0]);
    // the fallback never carries one, nor a turn with none
    expect(offline(qs[0]!.text, 'fallback')).toBeNull();
    expect(carriedQuestion([], { text: 'x', outcome: 'draft', provider: 'openai-compatible' })).toBeNull();
  });
});
