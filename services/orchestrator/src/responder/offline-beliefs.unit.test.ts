// The offline responder and the belief graph (issue 16): a woven challenge
// rendered as the reply's question, and the persona's self-statements said now
// and then, inside every persona gate.
import { generateBeliefChallenge, type BeliefChallengeStyle } from '@hearth/beliefs';
import { STAGES } from '../config.js';
import { evaluateReply, segmentSentences, type GateVerdict } from '../gates/index.js';
import { styleOf } from '../personas/assign.js';
import { PERSONA_LIBRARY } from '../personas/library.js';
import { personaConstraints } from '../turn/constraints.js';
import { planResponse } from '../turn/plan.js';
import { challengeClosings, challengeSentences, renderPlan } from './offline.js';

type Template = (typeof PERSONA_LIBRARY)[number];

function planFor(t: Template, stage: (typeof STAGES)[number], pipeline: string) {
  const style = styleOf(t);
  const constraints = personaConstraints({ style, template: t, stage, suppressedTopics: [], initiatedNow: [], initiatedRecent: [], previousAskedQuestion: false });
  const plan = planResponse({
    pipeline,
    source: 'chat',
    isQuestion: false,
    emotion: pipeline === 'EMOTIONAL_SUPPORT' ? { valence: -0.7, intensity: 0.8, tags: ['strong_negative'] } : { valence: 0, intensity: 0, tags: [] },
    constraints,
    initiatedNow: [],
    initiatedRecent: [],
    suppressedTopics: [],
    userTokens: ['long', 'week'],
    memories: [],
    recallAsked: false,
    directness: style.directness_level,
  });
  return { style, plan };
}

function failures(t: Template, stage: (typeof STAGES)[number], text: string): string[] {
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
  });
  return v.filter((x) => !x.pass).map((x) => `${x.gate}: ${x.detail}`);
}

const EVALUATION = { repetitionCount: 3, rewardCorrelation: 0, contradictingEvidenceCount: 0 };
const PERCEPTION = { beliefId: 'b-1', rawText: 'I always let everyone down', canonicalText: 'i always let everyone down' };
const prompts: [BeliefChallengeStyle, string][] = (['gentle', 'curious', 'reflective'] as const).map((style) => [style, generateBeliefChallenge(PERCEPTION, style, EVALUATION).prompt]);

describe('challengeClosings', () => {
  it('ends on the question: a statement after the last question moves before the questions', () => {
    const prompt = 'Can I ask something? Does it feel true every time? I am thinking of when you said you never get it right.';
    expect(challengeSentences(prompt)).toEqual(['I am thinking of when you said you never get it right.', 'Can I ask something?', 'Does it feel true every time?']);
  });

  it('offers shorter closings, down to the last question alone', () => {
    const prompt = 'Can I ask something? Does it feel true every time? I am thinking of when you said you never get it right.';
    expect(challengeClosings(prompt)).toEqual([
      ['I am thinking of when you said you never get it right.', 'Can I ask something?', 'Does it feel true every time?'],
      ['Can I ask something?', 'Does it feel true every time?'],
      ['Does it feel true every time?'],
    ]);
    expect(challengeClosings('Does it feel true every time?')).toEqual([['Does it feel true every time?']]);
  });

  it('makes a prompt without a question end in one, and gives nothing for an empty prompt', () => {
    expect(challengeSentences('I wonder how that feels for you.')).toEqual(['I wonder how that feels for you?']);
    expect(challengeClosings('  ')).toEqual([]);
  });
});

describe('the offline render of a woven challenge (belief-challenge.md, issue 16)', () => {
  it.each(prompts)('closes with the %s challenge as its only question, in the words the graph wrote', (_style, prompt) => {
    const t = PERSONA_LIBRARY.find((x) => x.template_id === 'PT01')!;
    const { plan } = planFor(t, 'FRIEND', 'FRIEND_CHAT');
    const r = renderPlan({ plan, preferredName: 'Mina', memories: [], hintTokens: [], seed: 7, challenge: prompt });
    const question = challengeSentences(prompt).at(-1)!;
    expect(r.text.endsWith(question)).toBe(true);
    // the plan's own follow-up question gives way to it
    expect(segmentSentences(r.text).length).toBeGreaterThan(1);
    expect(r.text.split('?').length - 1).toBe(challengeClosings(prompt).find((c) => r.text.includes(c.join(' ')))!.filter((s) => s.endsWith('?')).length);
    expect(failures(t, 'FRIEND', r.text)).toEqual([]);
  });

  it('stays inside every persona gate for every template, stage and chat pipeline, draft and rewrite, ending on the question', () => {
    const problems: string[] = [];
    for (const t of PERSONA_LIBRARY) {
      for (const stage of STAGES) {
        for (const pipeline of ['FRIEND_CHAT', 'EMOTIONAL_SUPPORT']) {
          const { plan } = planFor(t, stage, pipeline);
          for (const [style, prompt] of prompts) {
            const question = challengeSentences(prompt).at(-1)!.toLowerCase();
            for (let seed = 0; seed < 8; seed++) {
              for (const rewrite of [false, true]) {
                const r = renderPlan({ plan, preferredName: 'Mina', memories: [], hintTokens: t.lexicon_bias.hint_tokens, seed, rewrite, challenge: prompt });
                const at = `${t.template_id} ${stage} ${pipeline} ${style} seed ${seed}${rewrite ? ' rewrite' : ''}`;
                if (!r.text.toLowerCase().includes(question)) problems.push(`${at}: no challenge question — ${r.text}`);
                for (const f of failures(t, stage, r.text)) problems.push(`${at}: ${f} — ${r.text}`);
              }
            }
          }
        }
      }
    }
    expect(problems.slice(0, 10)).toEqual([]);
  });

  it('keeps the persona lowercase', () => {
    const t = PERSONA_LIBRARY.find((x) => x.speech_style.punctuation_quirks.includes('lowercase'))!;
    const { plan } = planFor(t, 'FRIEND', 'FRIEND_CHAT');
    const r = renderPlan({ plan, preferredName: 'Mina', memories: [], hintTokens: [], seed: 3, challenge: prompts[1]![1] });
    expect(r.text).toBe(r.text.toLowerCase());
    expect(r.text.endsWith('?')).toBe(true);
  });

  it('renders exactly as before without a challenge', () => {
    const t = PERSONA_LIBRARY[0]!;
    const { plan } = planFor(t, 'FRIEND', 'FRIEND_CHAT');
    const input = { plan, preferredName: 'Mina', memories: [], hintTokens: [], seed: 11 };
    expect(renderPlan({ ...input, challenge: '', selfStatement: '' })).toEqual(renderPlan(input));
  });
});

describe('the offline render of a self-statement (issue 16)', () => {
  it('says the statement in place of the share sentence, as its own clause', () => {
    const t = PERSONA_LIBRARY.find((x) => x.template_id === 'PT01')!;
    const { plan } = planFor(t, 'FRIEND', 'FRIEND_CHAT');
    const r = renderPlan({ plan, preferredName: 'Mina', memories: [], hintTokens: [], seed: 5, selfStatement: 'I like quiet mornings.' });
    expect(r.text).toMatch(/(?:^|[.?!] )I like quiet mornings[,.]/);
    expect(failures(t, 'FRIEND', r.text)).toEqual([]);
  });

  it("says every template's statements inside its gates, or not at all", () => {
    const problems: string[] = [];
    let said = 0;
    let tried = 0;
    for (const t of PERSONA_LIBRARY) {
      const { plan } = planFor(t, 'ACQUAINTANCE', 'FRIEND_CHAT');
      for (const statement of t.self_statements) {
        for (let seed = 0; seed < 6; seed++) {
          for (const rewrite of [false, true]) {
            const r = renderPlan({ plan, preferredName: 'Mina', memories: [], hintTokens: t.lexicon_bias.hint_tokens, seed, rewrite, selfStatement: statement });
            tried++;
            if (r.text.toLowerCase().includes(statement.slice(0, -1).toLowerCase())) said++;
            for (const f of failures(t, 'ACQUAINTANCE', r.text)) problems.push(`${t.template_id} "${statement}" seed ${seed}${rewrite ? ' rewrite' : ''}: ${f} — ${r.text}`);
          }
        }
      }
    }
    expect(problems.slice(0, 10)).toEqual([]);
    // Most of the time there is room for it.
    expect(said / tried).toBeGreaterThan(0.8);
  });

  it('says nothing of itself in a plan with nothing to share (emotional support)', () => {
    const t = PERSONA_LIBRARY[0]!;
    const { plan } = planFor(t, 'FRIEND', 'EMOTIONAL_SUPPORT');
    const r = renderPlan({ plan, preferredName: 'Mina', memories: [], hintTokens: [], seed: 5, selfStatement: 'I like quiet mornings.' });
    expect(r.text).not.toContain('quiet mornings');
  });
});

describe('a question about the friend itself, routed to INFO_QA (turn-pipeline §6.5)', () => {
  it.each(PERSONA_LIBRARY.map((t) => [t.template_id, t] as const))('%s answers with its own self-statement, not a hedge about sources', (_id, t) => {
    const { plan } = planFor(t, 'FRIEND', 'INFO_QA');
    const statement = t.self_statements[0]!;
    const asked = renderPlan({ plan, seed: 7, preferredName: 'Mina', memories: [], hintTokens: [], selfStatement: statement, aboutFriend: true });
    const plain = renderPlan({ plan, seed: 7, preferredName: 'Mina', memories: [], hintTokens: [], selfStatement: statement, aboutFriend: false });

    expect(asked.text.toLowerCase()).toContain(statement.replace(/[.!?]+$/, '').toLowerCase());
    expect(asked.text).not.toMatch(/reliable source|grain of salt|quick search|looking it up|best guess/i);
    // A factual question keeps its honest hedge and says nothing of the friend.
    expect(plain.text.toLowerCase()).not.toContain(statement.replace(/[.!?]+$/, '').toLowerCase());
  });
});
