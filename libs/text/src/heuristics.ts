import { compilePhrase, matchesPhrase, prepareText } from './match.js';

export type HeuristicFlag = 'preference' | 'fact' | 'event' | 'correction';

/**
 * The §5 regex triggers, in `normNoPunct` form (the spec's ’ folds to '). Beyond
 * the spec: the apostrophe-less spellings people type ("im from", "thats not
 * true", "dont remember that"), British "favourite" and "travelling".
 */
export const HEURISTIC_TRIGGERS: Readonly<Record<HeuristicFlag, readonly string[]>> = Object.freeze({
  preference: Object.freeze(['i like', 'i love', 'i hate', 'my favorite', 'my favourite']),
  fact: Object.freeze(["i'm from", 'im from', 'i live in', 'my job is', "i'm a", 'im a']),
  event: Object.freeze(['i broke up', 'my exam', "i'm traveling", 'im traveling', "i'm travelling", 'im travelling', 'interview']),
  correction: Object.freeze([
    "that's not true",
    'thats not true',
    "don't remember that",
    'dont remember that',
    "don't bring this topic up again",
    'dont bring this topic up again',
  ]),
});

const FLAGS = ['preference', 'fact', 'event', 'correction'] as const satisfies readonly HeuristicFlag[];

const COMPILED = FLAGS.map((flag) => [flag, HEURISTIC_TRIGGERS[flag].map(compilePhrase)] as const);

/** Which §5 triggers fire in `normNoPunct` (whole-word / phrase matching, as topics). */
export function heuristicFlags(normNoPunct: string): Record<HeuristicFlag, boolean> {
  const text = prepareText(normNoPunct);
  const flags = { preference: false, fact: false, event: false, correction: false };
  for (const [flag, phrases] of COMPILED) flags[flag] = phrases.some((phrase) => matchesPhrase(text, phrase));
  return flags;
}
