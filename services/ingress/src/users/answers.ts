import { z } from 'zod';
import { INGRESS } from '../config.js';
import { TOPIC_IDS } from '@hearth/text';

/** Age bands of turn-pipeline §4.1.1 (the API also accepts the ASCII hyphen). */
export const AGE_BANDS = ['13-17', '18-24', '25-34', '35-44', '45+'] as const;
/** Occupation categories of turn-pipeline §4.1.1. */
export const OCCUPATIONS = ['student', 'working', 'between_jobs', 'other'] as const;

/** True for an IANA zone name the runtime knows (e.g. Asia/Seoul, UTC). */
export function isIanaTimezone(tz: string): boolean {
  if (!/^[A-Za-z0-9_+\-/]+$/.test(tz)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const REGION_NAMES = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/** ISO 3166-1 alpha-2 region code (KR, US, …). */
export function isRegionCode(code: string): boolean {
  return /^[A-Z]{2}$/.test(code) && REGION_NAMES.of(code) !== undefined;
}

const ianaTimezone = z.string().refine(isIanaTimezone, { message: 'must be an IANA timezone such as Asia/Seoul' });

/** The seven required onboarding answers (turn-pipeline §4.1.1). */
export const onboardingAnswersSchema = z.strictObject({
  preferred_name: z
    .string()
    .trim()
    .min(1)
    .max(INGRESS.maxPreferredNameChars)
    .meta({ description: 'Trimmed; the length limits apply after trimming.', override: { pattern: '\\S' } }),
  age_band: z
    .string()
    .transform((v) => v.replace('–', '-'))
    .pipe(z.enum(AGE_BANDS, { message: `must be one of ${AGE_BANDS.join(', ')}` }))
    .meta({ description: 'The en dash of the spec (`13–17`) is accepted too.', override: { enum: [...AGE_BANDS] } }),
  country_or_region: z
    .string()
    .transform((v) => v.toUpperCase())
    .refine(isRegionCode, { message: 'must be an ISO 3166-1 alpha-2 code such as KR' })
    .meta({ description: 'An assigned ISO 3166-1 alpha-2 code such as KR; stored upper-cased.', override: { pattern: '^[A-Za-z]{2}$' } }),
  occupation_category: z.enum(OCCUPATIONS, { message: `must be one of ${OCCUPATIONS.join(', ')}` }),
  client_timezone: ianaTimezone.meta({ description: 'An IANA timezone such as Asia/Seoul.', examples: ['Asia/Seoul'] }),
  proactive_messages_enabled: z.boolean(),
  suppressed_topics: z
    .array(z.enum(TOPIC_IDS, { message: 'must be a TopicID (turn-pipeline §2.8)' }))
    .max(TOPIC_IDS.length)
    .transform((ts) => [...new Set(ts)])
    .meta({ description: 'TopicIDs (turn-pipeline §2.8); duplicates are removed.' }),
});

export type OnboardingAnswersInput = z.input<typeof onboardingAnswersSchema>;
export type OnboardingAnswersValue = z.output<typeof onboardingAnswersSchema>;

/** The names of the required answers, in the order of §4.1.1. */
export const REQUIRED_ANSWERS = Object.freeze(Object.keys(onboardingAnswersSchema.shape) as (keyof OnboardingAnswersValue)[]);

export const optionalTimezone = ianaTimezone.optional();
