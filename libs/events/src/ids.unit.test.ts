import { deriveId, isUuid } from './ids.js';

describe('ids', () => {
  it('derives the same uuid from the same parts, another from other parts', () => {
    expect(deriveId('retention', 'planned', 'u1')).toBe(deriveId('retention', 'planned', 'u1'));
    expect(deriveId('retention', 'planned', 'u1')).not.toBe(deriveId('retention', 'planned', 'u2'));
    expect(isUuid(deriveId('x'))).toBe(true);
  });

  it.each([
    ['00000000-0000-4000-8000-00000000000a', true],
    ['5B0F3C1E-7A52-4C1E-9F0E-2D6B8A4E9C11', true],
    ['-'.repeat(36), false],
    ['not-a-uuid', false],
    ['00000000-0000-4000-8000-00000000000a ', false],
    ['', false],
  ])('isUuid(%j) is %p', (value, expected) => {
    expect(isUuid(value)).toBe(expected);
  });
});
