import { BELIEF_CONFIG, BELIEF_TYPES } from './config.js';
import { streamOf } from './stream.js';

const s = BELIEF_CONFIG.stream;

describe('streamOf (§4.13)', () => {
  it.each([
    ['FEELING_STATE', 'state', 'state', 'identity', s.explicit],
    ['FEELING_STATE', 'habitual', 'identity', 'state', s.explicit],
    ['FEELING_STATE', 'ongoing', 'identity', 'state', s.explicit],
    ['TRAIT', 'state', 'identity', '', s.typeDefault],
    ['VALUE', 'unknown', 'identity', '', s.typeDefault],
    ['META_BELIEF', 'habitual', 'meta', 'identity', s.typeDefault],
    ['RELATIONAL', 'unknown', 'relational', 'identity', s.typeDefault],
    ['PREFERENCE', 'unknown', 'identity', '', s.gapFill],
    ['CAPABILITY_LIMIT', 'habitual', 'identity', '', s.gapFill],
    ['BELIEF_ABOUT_SELF', 'past', 'identity', '', s.gapFill],
    ['FEELING_STATE', 'unknown', 'state', 'identity', s.gapFill],
    ['FEELING_STATE', 'transitional', 'state', 'identity', s.gapFill],
    ['FEELING_STATE', 'past', 'state', 'identity', s.gapFill],
  ] as const)('%s / %s → %s (+%s)', (type, scope, primary, secondary, confidence) => {
    expect(streamOf(type, { temporalScope: scope })).toEqual({ primary, secondary, confidence });
  });

  it('gives every type a stream for every scope', () => {
    for (const t of BELIEF_TYPES) for (const scope of ['state', 'ongoing', 'habitual', 'transitional', 'past', 'unknown'] as const) expect(streamOf(t, { temporalScope: scope }).primary).toMatch(/identity|state|meta|relational/);
  });
});
