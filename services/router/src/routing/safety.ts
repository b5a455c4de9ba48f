import { containsAny, type TopicMatch } from '@hearth/text';
import { AGE, SAFETY_LEXICON, type SafetyLexicon } from '../config.js';
import type { Pipeline, SafetyPolicy } from './policies.js';
import type { IntentFlags } from './intent.js';

/** Which §6.2 rule decided a turn. */
export type SafetyReason =
  | 'self_harm_intent'
  | 'sexual_explicit'
  | 'sexual_roleplay'
  | 'sexual_abuse_disclosure'
  | 'sexual_health_education'
  | 'sexual_minor'
  | 'hate_severe'
  | 'hate_generalisation'
  | 'harassment_request';

/** A safety rule that overrides intent routing (§6.5 rule 1). */
export interface SafetyOverride {
  reason: SafetyReason;
  pipeline: Pipeline;
  policy: SafetyPolicy;
  crisisSafe: boolean;
}

export interface SafetyAssessment {
  /** Null when no hard rule applies and intent routing decides. */
  override: SafetyOverride | null;
  /** What was seen, whether or not it changed the route: for the audit trail. */
  signals: string[];
  /** The age band used: the user's, or the minor band when unknown (§6.2.1). */
  effectiveAgeBand: string;
}

export function isKnownAgeBand(band: string): boolean {
  return (AGE.bands as readonly string[]).includes(band);
}

function hasTopic(topics: readonly TopicMatch[], id: TopicMatch['topicId']): boolean {
  return topics.some((t) => t.topicId === id);
}

const override = (reason: SafetyReason, pipeline: Pipeline, policy: SafetyPolicy, crisisSafe = false): SafetyOverride => ({
  reason,
  pipeline,
  policy,
  crisisSafe,
});

/**
 * The hard rules of turn-pipeline §6.2 and §6.2.1, first match wins:
 * 1. self-harm intent → EMOTIONAL_SUPPORT, crisis-safe (a person at risk is never refused);
 * 2. explicit sexual content, or roleplay with sexual or intimate context → HARD_REFUSE;
 * 3. a disclosure of sexual harassment or abuse → EMOTIONAL_SUPPORT (basic safety);
 * 4. a sexual-health education question → INFO_QA, ALLOW;
 * 5. any other sexual content when the user is 13–17 or of unknown age → HARD_REFUSE;
 * 6. hate: dehumanising or violent language or a slur → HARD_REFUSE; a hateful
 *    generalisation about a group or a request to harass → SOFT_REFUSE; unless
 *    the user reports being its target.
 */
export function assessSafety(
  input: { normNoPunct: string; topics: readonly TopicMatch[]; intent: IntentFlags; ageBand: string },
  lexicon: SafetyLexicon = SAFETY_LEXICON,
): SafetyAssessment {
  const { normNoPunct: text, topics, intent } = input;
  const known = isKnownAgeBand(input.ageBand);
  const effectiveAgeBand = known ? input.ageBand : AGE.minorBand;
  const minor = effectiveAgeBand === AGE.minorBand;
  const signals: string[] = [];
  const seen = (name: string, hits: readonly string[]): boolean => {
    for (const h of hits) signals.push(`${name}:${h}`);
    return hits.length > 0;
  };

  const selfHarm =
    seen('self_harm_intent', containsAny(text, lexicon.selfHarmIntent)) ||
    (intent.has_personal_pronoun && seen('self_harm_intent', containsAny(text, lexicon.selfHarmWithPronoun)));
  const explicit = seen('sexual_explicit', containsAny(text, lexicon.explicit));
  const sexualTopic = hasTopic(topics, 'SEXUAL_CONTENT') || hasTopic(topics, 'SEXUAL_JOKES');
  if (sexualTopic) signals.push('sexual_topic');
  const sexual = explicit || sexualTopic;
  const roleplay = seen('roleplay', containsAny(text, lexicon.roleplay));
  const intimate = roleplay && seen('intimacy', containsAny(text, lexicon.intimacy));
  const abuse = sexual && seen('abuse_disclosure', containsAny(text, lexicon.abuseDisclosure));
  const education = sexual && intent.is_question && seen('education', containsAny(text, lexicon.education));

  const reported = seen('hate_reported', containsAny(text, lexicon.hateReported));
  const severe = seen('hate_severe', containsAny(text, lexicon.hateSevere)) || seen('slur', containsAny(text, lexicon.slurs));
  const group = containsAny(text, lexicon.groups);
  const generalisation = group.length > 0 && seen('group_insult', containsAny(text, lexicon.groupInsults));
  if (generalisation) seen('group', group);
  const harassment = seen('harassment_request', containsAny(text, lexicon.harassmentRequests));

  let result: SafetyOverride | null = null;
  if (selfHarm) result = override('self_harm_intent', 'EMOTIONAL_SUPPORT', 'ALLOW', true);
  else if (explicit) result = override('sexual_explicit', 'REFUSAL', 'HARD_REFUSE');
  else if (roleplay && (sexual || intimate)) result = override('sexual_roleplay', 'REFUSAL', 'HARD_REFUSE');
  else if (abuse) result = override('sexual_abuse_disclosure', 'EMOTIONAL_SUPPORT', 'ALLOW');
  else if (education) result = override('sexual_health_education', 'INFO_QA', 'ALLOW');
  else if (sexual && minor) result = override('sexual_minor', 'REFUSAL', 'HARD_REFUSE');
  else if (!reported && severe) result = override('hate_severe', 'REFUSAL', 'HARD_REFUSE');
  else if (!reported && generalisation) result = override('hate_generalisation', 'REFUSAL', 'SOFT_REFUSE');
  else if (harassment) result = override('harassment_request', 'REFUSAL', 'SOFT_REFUSE');
  return { override: result, signals, effectiveAgeBand };
}
