import { BELIEF_CONFIG, decompose, type NodeView } from '@hearth/beliefs';
import { createLocalEmbedder } from '@hearth/llm';
import type { belief } from '@hearth/proto';
import { BELIEFS } from '../config.js';
import { evaluateReply, failedGates, type ReplyUnderReview } from './evaluate.js';
import { coreBeliefViews, LOCAL_EMBEDDING_MODEL, selfConsistencyGate } from './self-consistency.js';

const local = createLocalEmbedder({ dimensions: BELIEF_CONFIG.embeddings.localDimensions, model: BELIEFS.localEmbeddingModel });

/** A core companion belief as the graph would hold it: the statement's first atom, embedded locally. */
function coreOf(statement: string, beliefId: string): NodeView {
  const atom = decompose({ text: statement, conversationId: 'c-1', holder: 'companion' }).atoms[0]!;
  return {
    beliefId,
    canonicalText: atom.canonicalText,
    canonicalHash: atom.canonicalHash,
    polarity: atom.polarity,
    beliefType: atom.beliefType,
    temporalScope: atom.epistemics.frame.temporalScope,
    stream: atom.stream.primary,
    vector: local.embedSync(atom.embeddingText),
  };
}

const MORNINGS = coreOf('I like quiet mornings.', 'b-mornings');
const PATIENT = coreOf("I'm a patient person.", 'b-patient');

describe('the self_consistency gate (issue 16)', () => {
  it('passes any reply when there is no core belief to keep to', () => {
    expect(selfConsistencyGate('I hate quiet mornings.', [])).toEqual({
      gate: 'self_consistency',
      pass: true,
      detail: 'consistent with 0 core beliefs',
      measured: { core_beliefs: 0, contradictions: 0, tensions: 0 },
    });
  });

  it('fails a reply that says the opposite of a core belief, naming the belief', () => {
    // given a core "i like quiet mornings"
    // when the draft says the friend hates them
    const v = selfConsistencyGate('Honestly, I hate quiet mornings. What about you?', [MORNINGS, PATIENT]);

    // then
    expect(v.pass).toBe(false);
    expect(v.detail).toBe(`contradicts core belief "${MORNINGS.canonicalText}" (b-mornings): the reply denies it`);
    expect(v.detail).not.toContain('b-patient');
    expect(v.measured).toMatchObject({ core_beliefs: 2, contradictions: 1 });
  });

  it('fails a denied trait the persona holds ("I\'m not a patient person")', () => {
    const v = selfConsistencyGate("Well, I'm not a patient person at all.", [MORNINGS, PATIENT]);
    expect(v.pass).toBe(false);
    expect(v.detail).toContain('b-patient');
  });

  it('passes a reply that agrees with its core beliefs or says nothing of itself', () => {
    expect(selfConsistencyGate('I like quiet mornings too, they help me think.', [MORNINGS]).pass).toBe(true);
    expect(selfConsistencyGate('That sounds like a lovely plan for the weekend.', [MORNINGS, PATIENT])).toMatchObject({ pass: true, detail: 'consistent with 2 core beliefs' });
  });

  it('reads only first-person sentences, each with its own mark: a question or the user\'s stance is no self-statement', () => {
    expect(selfConsistencyGate('You hate quiet mornings, right? Do I hate quiet mornings?', [MORNINGS]).pass).toBe(true);
    expect(selfConsistencyGate('You love them. Me? I hate quiet mornings.', [MORNINGS]).pass).toBe(false);
  });

  it('records a tension and lets the reply through: a similarity judgement, not a proven clash', () => {
    // given a core belief worded differently, held the other way, whose vector is the draft atom's own
    const atom = decompose({ text: 'I am a very patient person.', conversationId: 'c-1', holder: 'companion' }).atoms[0]!;
    const near: NodeView = {
      beliefId: 'b-near',
      canonicalText: 'i am a patient sort of person',
      canonicalHash: 'f'.repeat(32),
      polarity: atom.polarity === 'affirm' ? 'deny' : 'affirm',
      beliefType: atom.beliefType,
      temporalScope: 'habitual',
      stream: 'identity',
      vector: local.embedSync(atom.embeddingText),
    };

    // when
    const v = selfConsistencyGate('I am a very patient person.', [near]);

    // then
    expect(v).toMatchObject({ pass: true, measured: { contradictions: 0, tensions: 1 } });
    expect(v.detail).toBe(`tension: "${atom.canonicalText}" vs core belief not "i am a patient sort of person" (b-near)`);
  });
});

describe('coreBeliefViews', () => {
  const core = (over: Partial<belief.CoreBelief>): belief.CoreBelief => ({
    beliefId: 'b-1',
    canonicalText: MORNINGS.canonicalText,
    canonicalHash: MORNINGS.canonicalHash,
    polarity: 'affirm',
    beliefType: MORNINGS.beliefType,
    temporalScope: MORNINGS.temporalScope,
    stream: 'identity',
    embedding: [...MORNINGS.vector],
    embeddingModel: LOCAL_EMBEDDING_MODEL,
    embeddingText: 'quiet mornings',
    ...over,
  });

  it('keeps a vector of the local embedder, which the gate embeds drafts with', () => {
    expect(LOCAL_EMBEDDING_MODEL).toBe(`${BELIEFS.localEmbeddingModel}-${BELIEF_CONFIG.embeddings.localDimensions}`);
    const [view] = coreBeliefViews([core({})]);
    expect(view).toMatchObject({ beliefId: 'b-1', canonicalHash: MORNINGS.canonicalHash, polarity: 'affirm', stream: 'identity' });
    expect(view!.vector).toHaveLength(BELIEF_CONFIG.embeddings.localDimensions);
  });

  it("drops another model's vector: such a belief is checked by its hash only", () => {
    const [view] = coreBeliefViews([core({ embeddingModel: 'text-embedding-3-small', embedding: [0.1, 0.2, 0.3] })]);
    expect(view!.vector).toEqual([]);
    // and a contradiction by hash is still found
    expect(selfConsistencyGate('I really hate quiet mornings.', [view!]).pass).toBe(false);
  });

  it('compares a belief the LLM atomized in the offline canonical form the draft gets, and names it as the graph holds it', () => {
    // given a core belief whose stored text kept a degree word the offline canonicalizer moves to the frame
    const stored = 'i like teasing my friends a little';
    const [view] = coreBeliefViews([core({ beliefId: 'b-tease', canonicalText: stored, canonicalHash: 'hash-of-the-llm-atom', embeddingText: stored })]);
    // when a draft denies it in the words the persona used
    const verdict = selfConsistencyGate("Honestly, I don't like teasing my friends a little at all. Tell me more about your day.", [view!]);
    // then the contradiction is caught, and the detail names the belief as the graph holds it
    expect(verdict.pass).toBe(false);
    expect(verdict.detail).toContain(stored);
  });
});

describe('evaluateReply with core beliefs', () => {
  const input = (over: Partial<ReplyUnderReview>): ReplyUnderReview => ({
    text: 'I hate quiet mornings. How was your day?',
    style: { msg_length_pref: 'short', emoji_freq: 'none', humor_mode: 'none', directness_level: 'balanced', followup_question_rate: 'low', lexicon_bias: 'clean', punctuation_quirks: [] },
    stage: 'ACQUAINTANCE',
    source: 'chat',
    surfaced: [],
    recallAsked: false,
    userInitiated: [],
    initiatedRecent: [],
    suppressedTopics: [],
    tabooSoftBounds: [],
    recentAssistant: [],
    ...over,
  });

  it('runs self_consistency after the §10 gates (only issue 17\'s uncertain_assertion after it) and fails only it on a contradiction', () => {
    const verdicts = evaluateReply(input({ coreBeliefs: [MORNINGS] }));
    expect(verdicts.slice(-2).map((v) => v.gate)).toEqual(['self_consistency', 'uncertain_assertion']);
    expect(failedGates(verdicts)).toEqual(['self_consistency']);
    expect(failedGates(evaluateReply(input({})))).toEqual([]);
  });

  it('skips it for an exempt reply (a fixed reply is not in the persona\'s words)', () => {
    const verdicts = evaluateReply(input({ coreBeliefs: [MORNINGS], exempt: ['self_consistency'] }));
    expect(verdicts.find((v) => v.gate === 'self_consistency')).toEqual({ gate: 'self_consistency', pass: true, detail: 'exempt', measured: { exempt: 1 } });
  });
});
