import { ApiHttpException } from '@hearth/host';
import { z } from 'zod';
import { badText, badTextFields, checkText, parse } from './validation.js';

const HIGH = '\uD83D';
const LOW = '\uDE00';
const EMOJI = '\uD83D\uDE00';

function errorOf(fn: () => unknown): { status: number; body: any } {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiHttpException) return { status: err.getStatus(), body: err.getResponse() };
    throw err;
  }
  throw new Error('expected an ApiHttpException');
}

describe('text that may not reach an event (API.md: NUL and unpaired surrogates are 422)', () => {
  it.each([
    ['a lone high surrogate', `a${HIGH}b`],
    ['a lone high surrogate at the end', `ab${HIGH}`],
    ['a lone low surrogate', `a${LOW}b`],
    ['a lone low surrogate at the start', `${LOW}ab`],
    ['a reversed pair', `a${LOW}${HIGH}b`],
    ['two high surrogates', `${HIGH}${HIGH}`],
  ])('refuses %s', (_name, s) => {
    expect(badText(s)).toMatch(/surrogate/);
  });

  it.each([
    ['at the start', '\u0000bad'],
    ['in the middle', 'bad \u0000 byte'],
    ['at the end', 'bad\u0000'],
    ['alone', '\u0000'],
  ])('refuses NUL %s', (_name, s) => {
    expect(badText(s)).toMatch(/NUL/);
  });

  it.each([
    ['plain text', 'hello'],
    ['an emoji (a valid pair)', `hi ${EMOJI}!`],
    ['pairs back to back', `${EMOJI}${EMOJI}`],
    ['other control characters', 'tab\there\u0001'],
    ['the replacement character', '\uFFFD'],
    ['the empty string', ''],
  ])('accepts %s', (_name, s) => {
    expect(badText(s)).toBeNull();
  });

  it('finds bad strings at any depth, by field path, keys included', () => {
    const value = {
      text: 'fine',
      answers: { preferred_name: 'Mi\u0000na', topics: ['OK', `x${HIGH}`] },
      [`k\u0000ey`]: 1,
      deep: [[{ leaf: `${LOW}` }]],
      n: 3,
      b: true,
      z: null,
    };
    expect(badTextFields(value)).toEqual([
      { field: 'answers.preferred_name', message: 'must not contain NUL (U+0000)' },
      { field: 'answers.topics.1', message: 'must not contain an unpaired UTF-16 surrogate' },
      { field: 'k\uFFFDey', message: 'field name must not contain NUL (U+0000)' },
      { field: 'deep.0.0.leaf', message: 'must not contain an unpaired UTF-16 surrogate' },
    ]);
    expect(badTextFields({ ok: [EMOJI, { a: 'b' }] })).toEqual([]);
  });
});

describe('parse', () => {
  const schema = z.strictObject({ text: z.string(), client_locale: z.string().optional() });

  it('answers 422 INVALID_FIELDS naming the field with NUL, before the schema', () => {
    const e = errorOf(() => parse(schema, { text: 'bad \u0000 byte' }));
    expect(e.status).toBe(422);
    expect(e.body.error.code).toBe('INVALID_FIELDS');
    expect(e.body.error.details.fields).toEqual([{ field: 'text', message: 'must not contain NUL (U+0000)' }]);
  });

  it('checks fields the schema would refuse anyway, and unknown ones', () => {
    const e = errorOf(() => parse(schema, { text: 'ok', client_locale: `ko${HIGH}`, extra: '\u0000' }));
    expect(e.body.error.details.fields.map((f: any) => f.field)).toEqual(['client_locale', 'extra']);
  });

  it('still answers schema errors and 400 for a non-object', () => {
    expect(errorOf(() => parse(schema, { text: 3 })).body.error.details.fields[0].field).toBe('text');
    expect(errorOf(() => parse(schema, 'text')).status).toBe(400);
    expect(parse(schema, { text: `fine ${EMOJI}` })).toEqual({ text: `fine ${EMOJI}` });
  });
});

describe('checkText (query strings and path parameters)', () => {
  it('refuses NUL in a named part and leaves absent parts alone', () => {
    expect(() => checkText({ before: undefined, limit: '10' })).not.toThrow();
    const e = errorOf(() => checkText({ before: '2026\u0000', limit: '10' }));
    expect(e.status).toBe(422);
    expect(e.body.error.details.fields).toEqual([{ field: 'before', message: 'must not contain NUL (U+0000)' }]);
    // A repeated query parameter is an array.
    expect(errorOf(() => checkText({ status: ['all', '\u0000'] })).body.error.details.fields[0].field).toBe('status.1');
  });
});

describe('badTextFields on hostile nesting', () => {
  it('refuses a body nested 10,000 deep without overflowing the stack', () => {
    const deep = JSON.parse('['.repeat(10_000) + ']'.repeat(10_000)) as unknown;
    expect(badTextFields(deep)).toEqual([{ field: expect.any(String), message: 'nested deeper than 32 levels' }]);
    const deepObject = JSON.parse('{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000)) as unknown;
    expect(badTextFields(deepObject)[0]!.message).toBe('nested deeper than 32 levels');
  });
});
