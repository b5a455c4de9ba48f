// The offline responder and the uncertainty engine (issue 17): an uncertainty's
// question closes the reply whole, after the persona's acknowledgement, inside
// every persona gate, and asserts neither side.
import { questionFor } from '@hearth/uncertainty';
import { STAGES } from '../config.js';
import { evaluateReply, type GateVerdict, type WithheldValue } from '../gates/index.js';
import { styleOf } from '../personas/assign.js';
import { PERSONA_LIBRARY } from '../personas/library.js';
import { personaConstraints } from '../turn/constraints.js';
import { planResponse } from '../turn/plan.js';
import { renderPlan } from './offline.js';

type Template = (typeof PERSONA_LIBRARY)[number];

function planFor(t: Template, stage: (typeof STAGES)[number], pipeline: string) {
  const style = styleOf(t);
  const constraints = personaConstraints({ style, template: t, stage, suppressedTopics: [], initiatedNow: [], initiatedRecent: [], previousAskedQuestion: false });
  return planResponse({
    pipeline,
    source: 'chat',
    isQuestion: false,
    emotion: pipeline === 'EMOTIONAL_SUPPORT' ? { valence: -0.7, intensity: 0.8, tags: ['strong_negative'] } : { valence: 0, intensity: 0, tags: [] },
    constraints,
    initiatedNow: [],
    initiatedRecent: [],
    suppressedTopics: [],
    userTokens: ['i', 'hate', 'sushi'],
    memories: [],
    recallAsked: false,
    directness: style.directness_level,
  });
}

function failures(t: Template, stage: (typeof STAGES)[number], text: string, sides: readonly WithheldValue[], questions: readonly string[]): string[] {
  const v: GateVerdict[] = evaluateReply({
    text,
    style: styleOf(t),
    stage,
    source: 'chat',
    surfaced: [],
    recallAsked: false,
    userInitiated: [],
    initiatedRecent: [],
    suppressedTopics: [],
    tabooSoftBounds: t.taboo_soft_bounds,
    recentAssistant: [],
    uncertainty: { sides, questions },
  });
  return v.filter((x) => !x.pass).map((x) => `${x.gate}: ${x.detail}`);
}

const SURFACES = [
  { key: 'pref:food:sushi', heldValue: 'like|sushi', statedValue: 'dislike|sushi' },
  { key: 'fact:current_city', heldValue: 'seoul', statedValue: 'busan' },
];

describe('the offline render of an uncertainty question (issue 17)', () => {
  it('ends on the question, whole, after the acknowledgement, with no other question', () => {
    const t = PERSONA_LIBRARY.find((x) => x.template_id === 'PT01')!;
    const plan = planFor(t, 'FRIEND', 'FRIEND_CHAT');
    const q = questionFor({ uncertaintyId: 'u1', reason: 'contradiction', severity: 'critical', surfacedCount: 0, usedPhrasingIds: [], ...SURFACES[0]! }, 0).text;
    const r = renderPlan({ plan, preferredName: 'Mina', memories: [], hintTokens: [], seed: 7, uncertainty: [q] });
    expect(r.text.endsWith(q)).toBe(true);
    expect(r.text.length).toBeGreaterThan(q.length);
    expect(r.text.split('?').length - 1).toBe(q.split('?').length - 1);
    // the challenge gives way to it: one question a reply
    const both = renderPlan({ plan, preferredName: 'Mina', memories: [], hintTokens: [], seed: 7, uncertainty: [q], challenge: 'Does it feel true every single time?' });
    expect(both.text).toBe(r.text);
  });

  it('stays inside every persona gate for every template, chat pipeline and phrasing, draft and rewrite, ending on one of the phrasings', () => {
    const problems: string[] = [];
    for (const t of PERSONA_LIBRARY) {
      // The stage bounds only intimacy: the lowest and the highest cap.
      for (const stage of ['STRANGER', 'CLOSE_FRIEND'] as const) {
        for (const pipeline of ['FRIEND_CHAT', 'EMOTIONAL_SUPPORT']) {
          const plan = planFor(t, stage, pipeline);
          for (const s of SURFACES) {
            for (const reason of ['contradiction', 'surfacing'] as const) {
              for (let seed = 0; seed < 4; seed++) {
                // The phrasings as the recipe offers them: the seed's own first.
                const qs = [0, 1, 2].map((i) => questionFor({ uncertaintyId: 'u1', reason, severity: 'critical', surfacedCount: 0, usedPhrasingIds: [], ...s }, seed + i).text);
                const withheld = [{ key: s.key, value: s.heldValue }];
                for (const rewrite of [false, true]) {
                  const r = renderPlan({ plan, preferredName: 'Mina', memories: [], hintTokens: t.lexicon_bias.hint_tokens, seed, rewrite, uncertainty: qs });
                  const at = `${t.template_id} ${stage} ${pipeline} ${reason} seed ${seed}${rewrite ? ' rewrite' : ''}`;
                  const q = qs.find((x) => r.text.toLowerCase().endsWith(x.toLowerCase()));
                  if (!q) problems.push(`${at}: does not end on a question — ${r.text}`);
                  for (const f of failures(t, stage, r.text, withheld, qs)) problems.push(`${at}: ${f} — ${r.text}`);
                }
              }
            }
          }
        }
      }
    }
    expect(problems.slice(0, 10)).toEqual([]);
  });
});
