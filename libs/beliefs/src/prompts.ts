import { z } from 'zod';
import { BELIEF_TYPES, TEMPORAL_SCOPES } from './config.js';
import type { ClaimCandidate, EpistemicsResult, RawAtom } from './types.js';

// The LLM prompts of §4.3, §4.8 and §4.11, and zod schemas for their replies.
// Their texts are part of the extractor version (§6).

export const ATOMIZER_SYSTEM_PROMPT = `You extract atomic first-person self-beliefs from short statements.
For each numbered statement, list the beliefs the speaker holds about themselves.
Rules:
- One belief per atom, in lowercase first person, in AFFIRMATIVE form; carry negation in "polarity": "I'm not good enough" → atom_text "i am good enough", polarity "deny".
- "hate", "dislike" or "can't stand" x → atom_text "i like x", polarity "deny"; "love" or "enjoy" x → "i like x", polarity "affirm".
- Drop degree and time words (really, very, always, lately): "i am really patient" → "i am patient".
- After "have", drop counting words: "i have two cats" and "i don't have any cats" are both "i have cats".
- Skip questions, one-off past events, statements about the listener ("you"), and talk about talk ("i hear you", "i'm sorry", "i know").
- belief_type is one of: ${BELIEF_TYPES.join(', ')}.
- polarity is "affirm" or "deny"; confidence is between 0 and 1; source_idx is the statement's number.
Reply with JSON only: {"atoms":[{"atom_text":"i am patient","belief_type":"TRAIT","polarity":"affirm","confidence":0.9,"source_idx":0}]}`;

export function atomizerUserPrompt(candidates: readonly ClaimCandidate[]): string {
  return `Statements:\n${candidates.map((c, i) => `${i}. ${c.text}`).join('\n')}`;
}

export const REPAIR_JSON_PROMPT = `The text below was meant to be JSON matching the schema given, but it is malformed.
Return only the corrected JSON, with no commentary and no code fence. Do not add or invent content.`;

export function repairJsonUserPrompt(schemaExample: string, broken: string): string {
  return `Schema example:\n${schemaExample}\n\nMalformed text:\n${broken}`;
}

export const EPISTEMICS_FALLBACK_PROMPT = `You read how a person holds a statement about themselves.
Return:
- temporal_scope: one of ${TEMPORAL_SCOPES.join(', ')} (state = this moment; habitual = a repeated pattern; ongoing = continuing; transitional = changing; past = no longer).
- modality: certain, likely, possible or unsure.
- degree: 0 to 1, how intense.
- conditional: the condition under which it holds, or "".
- polarity: "deny" if the statement is negated, else "affirm".
- confidence: 0 to 1.
Reply with JSON only: {"temporal_scope":"habitual","modality":"certain","degree":0.5,"conditional":"","polarity":"affirm","confidence":0.8}`;

export function epistemicsUserPrompt(text: string): string {
  return `Statement: ${text}`;
}

export const VERIFIER_PROMPT = `Decide whether two first-person belief statements express the same belief about the self
(paraphrases of one belief), not merely related ones. Polarity and subject must agree.
Reply with JSON only: {"is_same_belief":true,"confidence":0.8,"reasoning":"one short sentence"}`;

export function verifierUserPrompt(a: string, b: string): string {
  return `A: ${a}\nB: ${b}`;
}

/** §4.3 output schema. Type and polarity are strings here: the validator rejects unknown ones as invalid_type (§4.4). */
export const atomizerReplySchema = z.object({
  atoms: z.array(
    z.object({
      atom_text: z.string(),
      belief_type: z.string(),
      polarity: z.string(),
      confidence: z.number().min(0).max(1),
      source_idx: z.number().int().min(0),
    }),
  ),
});
export type AtomizerReply = z.infer<typeof atomizerReplySchema>;

export const epistemicsReplySchema = z.object({
  temporal_scope: z.enum(TEMPORAL_SCOPES),
  modality: z.enum(['certain', 'likely', 'possible', 'unsure']),
  degree: z.number().min(0).max(1),
  conditional: z.string().default(''),
  polarity: z.enum(['affirm', 'deny']),
  confidence: z.number().min(0).max(1),
});
export type EpistemicsReply = z.infer<typeof epistemicsReplySchema>;

export const verifierReplySchema = z.object({
  is_same_belief: z.boolean(),
  confidence: z.number().min(0).max(1),
  reasoning: z.string().default(''),
});
export type VerifierReply = z.infer<typeof verifierReplySchema>;

/** The atomizer's reply as RawAtoms (unknown types pass through to the validator). */
export function rawAtomsFromReply(reply: AtomizerReply): RawAtom[] {
  return reply.atoms.map((a) => ({
    atomText: a.atom_text,
    beliefType: a.belief_type as RawAtom['beliefType'],
    polarity: a.polarity as RawAtom['polarity'],
    confidence: a.confidence,
    sourceIdx: a.source_idx,
  }));
}

/** The fallback's reply as an EpistemicsResult, with the signal that it came from the LLM. */
export function epistemicsFromReply(reply: EpistemicsReply): EpistemicsResult {
  return {
    frame: { temporalScope: reply.temporal_scope, modality: reply.modality, degree: reply.degree, conditional: reply.conditional },
    confidence: reply.confidence,
    signals: ['llm_fallback'],
    needsLlmFallback: false,
    detectedPolarity: reply.polarity,
  };
}

/** The verifier's reply as the step's verdict (§4.11). */
export function verdictFromReply(reply: VerifierReply): 'same' | 'different' {
  return reply.is_same_belief ? 'same' : 'different';
}

/** Every prompt text, in a fixed order, for the extractor version (§6). */
export const PROMPT_TEXTS: readonly string[] = [ATOMIZER_SYSTEM_PROMPT, atomizerUserPrompt([{ text: '{statement}', span: { start: 0, end: 0 } }]), REPAIR_JSON_PROMPT, EPISTEMICS_FALLBACK_PROMPT, VERIFIER_PROMPT];
