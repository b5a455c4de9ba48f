import { parseJsonReply } from '@hearth/llm';
import {
  ATOMIZER_SYSTEM_PROMPT,
  atomizerReplySchema,
  atomizerUserPrompt,
  epistemicsFromReply,
  epistemicsReplySchema,
  rawAtomsFromReply,
  verdictFromReply,
  verifierReplySchema,
} from './prompts.js';
import { extractorVersion } from './version.js';

describe('prompts and reply schemas (§4.3, §4.8, §4.11)', () => {
  it('numbers the candidates for the atomizer and names every belief type', () => {
    expect(atomizerUserPrompt([{ text: 'I am shy', span: { start: 0, end: 8 } }, { text: 'I like tea', span: { start: 10, end: 20 } }])).toBe('Statements:\n0. I am shy\n1. I like tea');
    expect(ATOMIZER_SYSTEM_PROMPT).toContain('BELIEF_ABOUT_SELF');
  });

  it('parses an atomizer reply into raw atoms, unknown types left to the validator', () => {
    const parsed = parseJsonReply('{"atoms":[{"atom_text":"i am patient","belief_type":"MOOD","polarity":"affirm","confidence":0.9,"source_idx":0}]}', atomizerReplySchema);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(rawAtomsFromReply(parsed.value)).toEqual([{ atomText: 'i am patient', beliefType: 'MOOD', polarity: 'affirm', confidence: 0.9, sourceIdx: 0 }]);
  });

  it('rejects an atomizer reply out of range', () => {
    expect(parseJsonReply('{"atoms":[{"atom_text":"x","belief_type":"TRAIT","polarity":"affirm","confidence":1.5,"source_idx":0}]}', atomizerReplySchema).ok).toBe(false);
  });

  it('parses an epistemics fallback reply', () => {
    const parsed = parseJsonReply('{"temporal_scope":"habitual","modality":"likely","degree":0.7,"polarity":"deny","confidence":0.8}', epistemicsReplySchema);
    expect(parsed.ok && epistemicsFromReply(parsed.value)).toEqual({
      frame: { temporalScope: 'habitual', modality: 'likely', degree: 0.7, conditional: '' },
      confidence: 0.8,
      signals: ['llm_fallback'],
      needsLlmFallback: false,
      detectedPolarity: 'deny',
    });
  });

  it('parses a verifier reply into a verdict', () => {
    const parsed = parseJsonReply('```json\n{"is_same_belief":false,"confidence":0.7,"reasoning":"different subjects"}\n```', verifierReplySchema);
    expect(parsed.ok && verdictFromReply(parsed.value)).toBe('different');
  });
});

describe('extractorVersion (§6)', () => {
  it('is 16 hex characters, stable for the same models and different for others', () => {
    const v = extractorVersion({ models: ['rules', 'hearth-local-256'] });
    expect(v).toMatch(/^[0-9a-f]{16}$/);
    expect(extractorVersion({ models: ['rules', 'hearth-local-256'] })).toBe(v);
    expect(extractorVersion({ models: ['gemini-2.0-flash', 'text-embedding-3-small'] })).not.toBe(v);
  });
});
