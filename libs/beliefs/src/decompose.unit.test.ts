import { canonicalize } from './canonicalize.js';
import { BELIEF_CONFIG } from './config.js';
import { decompose } from './decompose.js';

describe('decompose (phases 1–6)', () => {
  it('runs source context, segments, atoms, epistemics and stream on one text', () => {
    const d = decompose({ text: "I'm not good enough. I always second-guess myself.", conversationId: 'c1', holder: 'user' });
    expect(d.context).toEqual({ mode: 'normal_chat', sourceWeight: BELIEF_CONFIG.sourceContext.modeWeights.normal_chat, contextId: 'c1:normal_chat' });
    expect(d.segments.map((s) => s.text)).toEqual(["I'm not good enough.", 'I always second-guess myself.']);
    expect(d.atoms.map((a) => [a.canonicalText, a.polarity, a.beliefType, a.stream.primary])).toEqual([
      ['i am good enough', 'deny', 'BELIEF_ABOUT_SELF', 'identity'],
      ['i second-guess myself', 'affirm', 'META_BELIEF', 'meta'],
    ]);
    const [first, second] = d.atoms;
    expect(first!.canonicalHash).toBe(canonicalize('i am good enough').canonicalHash);
    expect(first!.rawText).toBe("I'm not good enough.");
    expect(first!.spans).toEqual([{ start: 0, end: 20 }]);
    expect(first!.epistemics.detectedPolarity).toBe('deny');
    expect(second!.epistemics.frame.temporalScope).toBe('habitual');
    expect(first!.embeddingText).toBe('good enough');
  });

  it('uses the LLM atoms when given, validating them', () => {
    const d = decompose({
      text: 'I am kind to strangers.',
      conversationId: 'c2',
      holder: 'user',
      rawAtoms: [
        { atomText: 'i am kind to strangers', beliefType: 'TRAIT', polarity: 'affirm', confidence: 0.9, sourceIdx: 0 },
        { atomText: 'You are kind', beliefType: 'TRAIT', polarity: 'affirm', confidence: 0.9, sourceIdx: 0 },
        { atomText: 'i am kind', beliefType: 'MOOD' as never, polarity: 'affirm', confidence: 0.9, sourceIdx: 0 },
        { atomText: 'i am nice', beliefType: 'TRAIT', polarity: 'affirm', confidence: 0.9, sourceIdx: 7 },
      ],
    });
    expect(d.atoms.map((a) => a.canonicalText)).toEqual(['i am kind to strangers']);
    expect(d.rejected.map((r) => r.reason).sort()).toEqual(['invalid_type', 'invalid_type', 'not_first_person']);
  });

  it('dedups atoms of one extraction and merges their spans', () => {
    const d = decompose({ text: 'I am patient. I am really patient.', conversationId: 'c3', holder: 'user' });
    expect(d.atoms).toHaveLength(1);
    expect(d.duplicatesRemoved).toBe(1);
    expect(d.atoms[0]!.spans).toEqual([
      { start: 0, end: 13 },
      { start: 14, end: 34 },
    ]);
  });

  it('honours a given mode', () => {
    expect(decompose({ text: 'I am a dragon', conversationId: 'c4', holder: 'companion', mode: 'roleplay' }).context.sourceWeight).toBe(BELIEF_CONFIG.sourceContext.modeWeights.roleplay);
  });

  it('gives a feeling with no time cue an epistemics fallback, and a momentary one the state stream', () => {
    const [lonely] = decompose({ text: 'I feel lonely', conversationId: 'c5', holder: 'user' }).atoms;
    expect(lonely!.epistemics.needsLlmFallback).toBe(true);
    const [now] = decompose({ text: 'I feel lonely right now', conversationId: 'c5', holder: 'user' }).atoms;
    expect(now!.stream).toEqual(expect.objectContaining({ primary: 'state', secondary: 'identity' }));
    const [always] = decompose({ text: 'I always feel lonely', conversationId: 'c5', holder: 'user' }).atoms;
    expect(always!.stream.primary).toBe('identity');
  });
});
