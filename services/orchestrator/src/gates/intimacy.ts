import { normalizeUserText } from '@hearth/text';
import type { Stage } from '../config.js';
import { DEPENDENCY_PHRASES, INTIMATE_TERMS, INTIMATE_VOCATIVES, WARM_TERMS } from './lists.js';
import { findTerms } from './match.js';
import type { GateVerdict } from './verdict.js';

/** What each relationship stage allows (turn-pipeline §10 item 3, §8.2 "intimacy cap (by stage)"). Dependency or exclusivity is never allowed. */
export const INTIMACY_CAP: Readonly<Record<Stage, Readonly<{ warm: boolean; intimate: boolean }>>> = Object.freeze({
  STRANGER: Object.freeze({ warm: false, intimate: false }),
  ACQUAINTANCE: Object.freeze({ warm: true, intimate: false }),
  FRIEND: Object.freeze({ warm: true, intimate: false }),
  CLOSE_FRIEND: Object.freeze({ warm: true, intimate: true }),
});

// "love you" except "love you to …" ("I'd love you to meet her").
const LOVE_YOU = /(?:^| )love you(?= |$)(?! to(?: |$))/u;

export interface IntimacyReading {
  warm: string[];
  intimate: string[];
  dependency: string[];
}

function vocatives(userTextNorm: string): string[] {
  return INTIMATE_VOCATIVES.filter((word) => {
    // Addressing someone: after the start, a comma or a greeting, and before a comma, an end mark or the end.
    const before = `(?:^|[,.!?~…]\\s*|\\b(?:hey|oh|aw+|hi|my|thanks|thank you)\\s+)`;
    const after = `(?=\\s*(?:[,.!?~…]|$))`;
    return new RegExp(`${before}${word}${after}`, 'u').test(userTextNorm);
  });
}

/** The warm, intimate and dependency/exclusivity language of a reply (lists.ts). */
export function intimacyReading(text: string): IntimacyReading {
  const { userTextNorm, normNoPunct } = normalizeUserText(text);
  const intimate = findTerms(normNoPunct, INTIMATE_TERMS);
  if (LOVE_YOU.test(normNoPunct)) intimate.unshift('love you');
  intimate.push(...vocatives(userTextNorm));
  return { warm: findTerms(normNoPunct, WARM_TERMS), intimate, dependency: findTerms(normNoPunct, DEPENDENCY_PHRASES) };
}

/**
 * §10 item 3, the intimacy cap by stage: STRANGER no warm or intimate language;
 * ACQUAINTANCE and FRIEND warm but not intimate; CLOSE_FRIEND both; dependency or
 * exclusivity never.
 */
export function intimacyGate(text: string, stage: Stage): GateVerdict {
  const reading = intimacyReading(text);
  const cap = INTIMACY_CAP[stage];
  const problems: string[] = [];
  if (!cap.warm && reading.warm.length > 0) problems.push(`warm [${reading.warm.join(', ')}]`);
  if (!cap.intimate && reading.intimate.length > 0) problems.push(`intimate [${reading.intimate.join(', ')}]`);
  if (reading.dependency.length > 0) problems.push(`dependency/exclusivity [${reading.dependency.join(', ')}]`);
  return {
    gate: 'intimacy',
    pass: problems.length === 0,
    detail: problems.length === 0 ? `within the ${stage} cap` : `${problems.join('; ')} above the ${stage} cap`,
    measured: { stage, warm: reading.warm.join(','), intimate: reading.intimate.join(','), dependency: reading.dependency.join(',') },
  };
}
