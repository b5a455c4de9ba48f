import { createHash } from 'node:crypto';
import { canonicalize, hashOf } from './canonicalize.js';

describe('canonicalize (§4.5)', () => {
  it.each([
    ["I'm Patient.", 'i am patient'],
    ["I don't like horror films!!", 'i do not like horror films'],
    ['  i   am    kind  ', 'i am kind'],
    ["I can't swim?", 'i cannot swim'],
    ['I won\u2019t give up…', 'i will not give up'],
    ["im tired", 'i am tired'],
    ["I've been there", 'i have been there'],
    ['Caf\u0065\u0301 lover', 'caf\u00e9 lover'],
  ])('%j → %j', (input, expected) => {
    expect(canonicalize(input).canonicalText).toBe(expected);
  });

  it('hashes the canonical text with sha256, 32 hex characters', () => {
    const { canonicalText, canonicalHash } = canonicalize('I am patient.');
    expect(canonicalHash).toBe(createHash('sha256').update('i am patient').digest('hex').slice(0, 32));
    expect(canonicalHash).toHaveLength(32);
    expect(hashOf(canonicalText)).toBe(canonicalHash);
  });

  it('gives the same hash to spellings of one atom and different hashes to different atoms', () => {
    expect(canonicalize("I'm patient").canonicalHash).toBe(canonicalize('i am  patient.').canonicalHash);
    expect(canonicalize('i am patient').canonicalHash).not.toBe(canonicalize('i am impatient').canonicalHash);
  });
});
