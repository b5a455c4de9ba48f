import { BELIEF_CONFIG, type BeliefType, type Stream, type TemporalScope } from './config.js';
import type { EpistemicFrame, StreamClassification } from './types.js';

type Entry = { primary: Stream; secondary: Stream | '' };
const cfg = BELIEF_CONFIG.stream;

/** §4.13 as the spec's YAML gives it: (type, scope) entries and type defaults. */
const EXPLICIT: Partial<Record<BeliefType, Partial<Record<TemporalScope, Entry>>>> = {
  FEELING_STATE: {
    state: { primary: 'state', secondary: 'identity' },
    habitual: { primary: 'identity', secondary: 'state' },
    ongoing: { primary: 'identity', secondary: 'state' },
  },
};
const DEFAULTS: Partial<Record<BeliefType, Entry>> = {
  TRAIT: { primary: 'identity', secondary: '' },
  VALUE: { primary: 'identity', secondary: '' },
  META_BELIEF: { primary: 'meta', secondary: 'identity' },
  RELATIONAL: { primary: 'relational', secondary: 'identity' },
};
/**
 * Hearth fills the YAML's gaps: a PREFERENCE, a CAPABILITY_LIMIT or a
 * BELIEF_ABOUT_SELF is a standing fact about the self → identity; a
 * FEELING_STATE with no habitual/ongoing cue (unknown, transitional, past) is a
 * momentary state → state, identity second.
 */
const GAPS: Record<BeliefType, Entry> = {
  TRAIT: { primary: 'identity', secondary: '' },
  VALUE: { primary: 'identity', secondary: '' },
  PREFERENCE: { primary: 'identity', secondary: '' },
  CAPABILITY_LIMIT: { primary: 'identity', secondary: '' },
  BELIEF_ABOUT_SELF: { primary: 'identity', secondary: '' },
  FEELING_STATE: { primary: 'state', secondary: 'identity' },
  META_BELIEF: { primary: 'meta', secondary: 'identity' },
  RELATIONAL: { primary: 'relational', secondary: 'identity' },
};

/** §4.13: (belief_type, temporal_scope) → stream, with a confidence per source of the rule. */
export function streamOf(beliefType: BeliefType, frame: Pick<EpistemicFrame, 'temporalScope'>): StreamClassification {
  const explicit = EXPLICIT[beliefType]?.[frame.temporalScope];
  if (explicit) return { ...explicit, confidence: cfg.explicit };
  const byType = DEFAULTS[beliefType];
  if (byType) return { ...byType, confidence: cfg.typeDefault };
  return { ...GAPS[beliefType], confidence: cfg.gapFill };
}
