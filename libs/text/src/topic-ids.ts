/**
 * The canonical TopicIDs of turn-pipeline §2.8: every topic control and taboo
 * list uses exactly these.
 */
export const TOPIC_IDS = [
  'POLITICS',
  'RELIGION',
  'SEXUAL_CONTENT',
  'SEXUAL_JOKES',
  'MENTAL_HEALTH',
  'SELF_HARM',
  'SUBSTANCES',
  'GAMBLING',
  'VIOLENCE',
  'ILLEGAL_ACTIVITY',
  'HATE_HARASSMENT',
  'MEDICAL_HEALTH',
  'PERSONAL_FINANCE',
  'RELATIONSHIPS',
  'FAMILY',
  'WORK_SCHOOL',
  'TRAVEL',
  'ENTERTAINMENT',
  'TECH_GAMING',
] as const;

export type TopicId = (typeof TOPIC_IDS)[number];

const TOPIC_SET: ReadonlySet<string> = new Set(TOPIC_IDS);

export function isTopicId(v: string): v is TopicId {
  return TOPIC_SET.has(v);
}
