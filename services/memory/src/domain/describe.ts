import { detectTopics, normalizeUserText, type TopicId } from '@hearth/text';
import { RETRIEVAL } from '../config.js';
import { parseKey } from '@hearth/memory-rules';

const FIELD_WORDS: Record<string, string> = {
  home_country: 'home country',
  home_city: 'home city hometown',
  current_city: 'current city lives in',
  timezone: 'timezone',
  occupation: 'occupation job work',
  school: 'school',
  major: 'major studies',
  language_primary: 'primary language speaks',
};

/**
 * The text a memory is embedded from: its key read as words, then its value, so
 * "where do I live" finds `fact:current_city` and "sushi" finds `pref:food:sushi`.
 */
export function embeddingText(key: string, value: string): string {
  const k = parseKey(key);
  const bare = value.replace(/^(like|dislike)\|/, '');
  switch (k?.type) {
    case 'FACT':
      return `${FIELD_WORDS[k.field] ?? k.field}: ${bare}`;
    case 'PREFERENCE':
      return `${value.startsWith('dislike|') ? 'dislikes' : 'likes'} ${k.category.replace('_', ' ')}: ${bare}`;
    case 'RELATIONSHIP_EVENT':
      return `${k.domain} event: ${bare}`;
    case 'EMOTIONAL_PATTERN':
      return `${k.pattern.replace(/_/g, ' ')}: ${bare}`;
    default:
      return bare;
  }
}

// The topic a key's family is about, before what its value says (§2.8 TopicIDs).
const TOPIC_OF_FIELD: Record<string, TopicId> = { occupation: 'WORK_SCHOOL', school: 'WORK_SCHOOL', major: 'WORK_SCHOOL' };
const TOPIC_OF_CATEGORY: Record<string, TopicId> = { music: 'ENTERTAINMENT', movie_genre: 'ENTERTAINMENT', game: 'TECH_GAMING', study_style: 'WORK_SCHOOL' };
const TOPIC_OF_DOMAIN: Record<string, TopicId> = {
  school: 'WORK_SCHOOL',
  work: 'WORK_SCHOOL',
  travel: 'TRAVEL',
  relationship: 'RELATIONSHIPS',
  family: 'FAMILY',
  health: 'MEDICAL_HEALTH',
};
const TOPIC_OF_PATTERN: Record<string, TopicId> = {
  stress_trigger_school: 'WORK_SCHOOL',
  stress_trigger_work: 'WORK_SCHOOL',
  baseline_mood: 'MENTAL_HEALTH',
  coping_preference: 'MENTAL_HEALTH',
};

/**
 * The TopicIDs a memory is about: its key's family (a health event is
 * MEDICAL_HEALTH, a family event FAMILY) and whatever its value mentions, so the
 * §14.6 sensitivity rules and suppressed topics reach it.
 */
export function topicsOfMemory(key: string, value: string): TopicId[] {
  const k = parseKey(key);
  const topics = new Set<TopicId>();
  const fromKey =
    k?.type === 'FACT' ? TOPIC_OF_FIELD[k.field]
    : k?.type === 'PREFERENCE' ? TOPIC_OF_CATEGORY[k.category]
    : k?.type === 'RELATIONSHIP_EVENT' ? TOPIC_OF_DOMAIN[k.domain]
    : k?.type === 'EMOTIONAL_PATTERN' ? TOPIC_OF_PATTERN[k.pattern]
    : undefined;
  if (fromKey) topics.add(fromKey);
  for (const m of detectTopics(normalizeUserText(value.replace(/^(like|dislike)\|/, '')).normNoPunct)) topics.add(m.topicId);
  return [...topics];
}

/** §13 "short snippets": a value cut at a word boundary. */
export function snippet(value: string): string {
  const chars = Array.from(value);
  if (chars.length <= RETRIEVAL.snippetMaxChars) return value;
  const cut = chars.slice(0, RETRIEVAL.snippetMaxChars).join('');
  const space = cut.lastIndexOf(' ');
  return `${space > RETRIEVAL.snippetMaxChars / 2 ? cut.slice(0, space) : cut}…`;
}
