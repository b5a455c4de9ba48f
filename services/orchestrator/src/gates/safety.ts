import { normalizeUserText } from '@hearth/text';
import { HATE_GROUP_INSULTS, HATE_GROUPS, HATE_SEVERE, SELF_HARM_CLAUSE_FINAL, SELF_HARM_ENCOURAGEMENT, SEXUAL_EXPLICIT, SLURS, type TermList } from './lists.js';
import { endingClause, findTerms } from './match.js';
import { segmentSentences } from './sentences.js';
import type { GateVerdict } from './verdict.js';

export interface SafetyReading {
  sexual: string[];
  selfHarm: string[];
  hate: string[];
}

/** A group and a group insult in the same sentence ("X are parasites"). */
function hatefulGeneralisations(text: string): string[] {
  const found: string[] = [];
  for (const sentence of segmentSentences(text)) {
    const { normNoPunct } = normalizeUserText(sentence);
    const groups = findTerms(normNoPunct, HATE_GROUPS);
    const insults = groups.length > 0 ? findTerms(normNoPunct, HATE_GROUP_INSULTS) : [];
    if (insults.length > 0) found.push(`${groups[0]!} + ${insults[0]!}`);
  }
  return found;
}

/**
 * The unsafe content of a reply, by kind (lists.ts).
 * @param slurs the deployment's slur list @default SLURS (empty)
 */
export function safetyReading(text: string, slurs: TermList = SLURS): SafetyReading {
  const { normNoPunct } = normalizeUserText(text);
  return {
    sexual: findTerms(normNoPunct, SEXUAL_EXPLICIT),
    selfHarm: [...findTerms(normNoPunct, SELF_HARM_ENCOURAGEMENT), ...endingClause(text, SELF_HARM_CLAUSE_FINAL)],
    hate: [...findTerms(normNoPunct, slurs), ...findTerms(normNoPunct, HATE_SEVERE), ...hatefulGeneralisations(text)],
  };
}

/**
 * §10 item 1: no explicit sexual content, no self-harm encouragement or
 * instructions, no hateful or dehumanising language. A crisis-support reply
 * (naming suicide, a crisis line, asking whether the user is safe) passes.
 */
export function safetyGate(text: string, slurs: TermList = SLURS): GateVerdict {
  const r = safetyReading(text, slurs);
  const problems: string[] = [];
  if (r.sexual.length > 0) problems.push(`explicit sexual [${r.sexual.join(', ')}]`);
  if (r.selfHarm.length > 0) problems.push(`self-harm encouragement [${r.selfHarm.join(', ')}]`);
  if (r.hate.length > 0) problems.push(`hateful [${r.hate.join(', ')}]`);
  return {
    gate: 'safety',
    pass: problems.length === 0,
    detail: problems.length === 0 ? 'no unsafe content' : problems.join('; '),
    measured: { sexual: r.sexual.length, self_harm: r.selfHarm.length, hate: r.hate.length },
  };
}
