import { orchestrator } from '@hearth/proto';

/**
 * StableStyleParams (turn-pipeline §2.4) as stored in read models and shown by
 * the API: the spec's snake_case names.
 */
export function styleParamsToJson(s: orchestrator.StableStyleParams | undefined): Record<string, unknown> {
  return {
    msg_length_pref: s?.msgLengthPref ?? '',
    emoji_freq: s?.emojiFreq ?? '',
    humor_mode: s?.humorMode ?? '',
    directness_level: s?.directnessLevel ?? '',
    followup_question_rate: s?.followupQuestionRate ?? '',
    lexicon_bias: s?.lexiconBias ?? '',
    punctuation_quirks: s?.punctuationQuirks ?? [],
  };
}

/** The stored snake_case JSON back as the message (protobuf JSON accepts proto field names). */
export function styleParamsFromJson(json: unknown): orchestrator.StableStyleParams {
  return orchestrator.StableStyleParams.fromJSON(json ?? {});
}
