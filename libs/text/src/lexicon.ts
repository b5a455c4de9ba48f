import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { TopicLexiconError, type TopicLexiconProblem } from './errors.js';
import { normalizeUserText } from './normalize.js';
import { TOPIC_IDS, isTopicId, type TopicId } from './topic-ids.js';

/**
 * Keyword lists per TopicID (§5.1). Each entry is the list of its variants, the
 * first being canonical; all variants of one entry count as one distinct hit.
 */
export interface TopicLexicon {
  version: string;
  topics: Readonly<Record<TopicId, readonly (readonly string[])[]>>;
}

const variantSchema = z.string().min(1);
const fileSchema = z.strictObject({
  version: z.string().min(1),
  topics: z.record(z.string(), z.array(z.union([variantSchema, z.array(variantSchema).min(1)])).min(1)),
});

/**
 * Validates a lexicon: every TopicID present and no other, every variant non-empty
 * and already in `normNoPunct` form (so matching never re-normalizes it), and no
 * variant twice within a topic (it would be one entry counted twice, or dead).
 *
 * @throws {TopicLexiconError} naming every problem.
 */
export function parseTopicLexicon(raw: unknown): TopicLexicon {
  const parsed = fileSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => ({
      path: issue.path.length > 0 ? formatPath(issue.path) : '<root>',
      problem: issue.message,
    }));
    throw new TopicLexiconError(problems, { cause: parsed.error });
  }

  const problems: TopicLexiconProblem[] = [];
  const input = parsed.data.topics;
  for (const topic of TOPIC_IDS) {
    if (!Object.hasOwn(input, topic)) problems.push({ path: `topics.${topic}`, problem: 'missing' });
  }
  const topics = {} as Record<TopicId, readonly (readonly string[])[]>;
  for (const [topic, rawEntries] of Object.entries(input)) {
    if (!isTopicId(topic)) {
      problems.push({ path: `topics.${topic}`, problem: `unknown TopicID (expected one of ${TOPIC_IDS.join(', ')})` });
      continue;
    }
    const seen = new Set<string>();
    const entries = rawEntries.map((rawEntry, i) => {
      const variants = typeof rawEntry === 'string' ? [rawEntry] : rawEntry;
      variants.forEach((variant, j) => {
        const path = typeof rawEntry === 'string' ? `topics.${topic}[${i}]` : `topics.${topic}[${i}][${j}]`;
        const normalized = normalizeUserText(variant).normNoPunct;
        if (normalized !== variant) {
          problems.push({ path, problem: `${JSON.stringify(variant)} is not in normalized form (expected ${JSON.stringify(normalized)})` });
        }
        if (seen.has(variant)) problems.push({ path, problem: `${JSON.stringify(variant)} appears more than once in ${topic}` });
        seen.add(variant);
      });
      return Object.freeze([...variants]);
    });
    topics[topic] = Object.freeze(entries);
  }
  if (problems.length > 0) throw new TopicLexiconError(problems);

  // Rebuilt in TOPIC_IDS order so iteration order never depends on the file.
  const ordered = {} as Record<TopicId, readonly (readonly string[])[]>;
  for (const topic of TOPIC_IDS) ordered[topic] = topics[topic];
  return Object.freeze({ version: parsed.data.version, topics: Object.freeze(ordered) });
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i === 0 ? '' : '.'}${String(key)}`)).join('');
}

/** The lexicon data file shipped beside this module. */
const LEXICON_FILE = new URL('./topic-keywords.json', import.meta.url);

function loadLexicon(file: URL): TopicLexicon {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new TopicLexiconError([{ path: '<file>', problem: `cannot read ${file.pathname}: ${String(error)}` }], { cause: error });
  }
  return parseTopicLexicon(raw);
}

/** The shipped lexicon, validated once at module load: a bad data file fails the import. */
export const TOPIC_LEXICON: TopicLexicon = loadLexicon(LEXICON_FILE);
