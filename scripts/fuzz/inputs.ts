// The fuzzer's alphabet: edge-case text, wrong JSON types, odd objects and whole
// request bodies (malformed, deep, huge, not UTF-8), as fast-check arbitraries.
import fc from 'fast-check';

/** Text a client may legitimately send, which must pass untouched (no 5xx, no wedged user). */
export const BENIGN = {
  rtl: 'שלום \u202Eevil.exe\u202C עולם',
  arabic: 'مرحبا، كيف حالك؟',
  combining: 'e\u0301\u0308 n\u0303 a\u030A\u0323',
  zalgo: 'Z\u0335\u0321\u0322a\u0338l\u0335g\u0335o\u0336',
  zeroWidth: 'zero\u200Bwidth\u200C\u200Djoin\u2060\uFEFF',
  emoji: '👩‍👩‍👧‍👦 🏳️‍🌈 👍🏽 🫠',
  astral: '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𠜎𠜱 𓀀',
  cjk: '안녕하세요 你好 こんにちは',
  separators: 'line\u2028para\u2029end',
  controls: 'tab\there\r\nbell\u0007 esc\u001b[31m',
  specials: '\uFFFD \uFFFC \uFFFF \uFFFE',
  markup: '<script>alert(1)</script><img src=x onerror=alert(1)>',
  sql: "Robert'); DROP TABLE turns;--",
  template: '${7*7} {{7*7}} %s%n%x',
  path: '../../../etc/passwd',
  escapes: '\\u0000 \\ud800 %00 %ff',
  memory: 'my name is Sam and I work as a nurse; I love hiking',
} as const;

/** Text the API must refuse with 422 (API.md: NUL and unpaired surrogates). */
export const POISON = {
  nul: 'bad \u0000 byte',
  loneHigh: 'x\uD800y',
  loneLow: '\uDC00 alone',
  reversedPair: 'swap \uDC00\uD800',
  trailingHigh: 'ends with \uD83D',
} as const;

/** Units repeated to lengths near a limit: one UTF-16 unit, a surrogate pair, a base with a mark, a Hangul syllable. */
const REPEAT_UNITS = ['a', '😀', 'e\u0301', '한', ' '];

export const benignText: fc.Arbitrary<string> = fc
  .array(fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...Object.values(BENIGN)) }, fc.string({ unit: 'grapheme', maxLength: 24 }), fc.constantFrom('hello', 'how are you?', 'I feel a bit tired today')), {
    minLength: 1,
    maxLength: 5,
  })
  .map((parts) => parts.join(' '));

/** Benign text with one poison string inside it. */
export const poisonText: fc.Arbitrary<string> = fc
  .tuple(benignText, fc.constantFrom(...Object.values(POISON)), fc.nat())
  .map(([text, poison, at]) => {
    const i = at % (text.length + 1);
    return text.slice(0, i) + poison + text.slice(i);
  });

/** A unit repeated to just under, at, just over and far over `limit` UTF-16 units. */
export function sizedText(limit: number): fc.Arbitrary<string> {
  const lengths = fc.oneof(fc.integer({ min: limit - 2, max: limit + 2 }), fc.constantFrom(limit * 2, limit * 8));
  return fc.tuple(fc.constantFrom(...REPEAT_UNITS), lengths).map(([unit, n]) => unit.repeat(Math.max(0, Math.ceil(n / unit.length))));
}

/** Any text for a string field whose limit is `limit`: mostly edge cases, sometimes poison or overlong. */
export function anyText(limit: number): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 5, arbitrary: benignText },
    { weight: 2, arbitrary: poisonText },
    { weight: 1, arbitrary: sizedText(limit) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 64 }) },
    { weight: 1, arbitrary: fc.constantFrom('', ' ', '\u3000', '\n\t') },
  );
}

/** A JSON value of a type no field expects, or of the wrong one. */
export const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1e308, -1e-308, 2 ** 53 + 1, [], {}, [[]], { $gt: '' }, ['admin'], '0', 'true', 'null'),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.jsonValue({ maxDepth: 2 }),
);

/** Marks a field to leave out of the object. */
export const ABSENT = Symbol('absent');

/** A field's value: mostly `valid`, else edge-case text, a wrong type or absent. */
export function field(valid: fc.Arbitrary<unknown>, textLimit = 64): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 5, arbitrary: valid },
    { weight: 2, arbitrary: anyText(textLimit) },
    { weight: 2, arbitrary: wrongType },
    { weight: 1, arbitrary: fc.constant(ABSENT) },
  );
}

/** Keys no schema names: prototype pollution, identity fields, odd text. */
const extraKey = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'user_id', 'roles', 'admin', 'role', 'sub', '', ' ', 'a\u0000b', '\uD800', 'ключ'),
  fc.string({ maxLength: 12 }),
);

/**
 * An object of the given fields, absent ones left out, sometimes with extra keys.
 * Built without a prototype so that a `__proto__` key is an own property, as a
 * client's JSON has it.
 */
export function objectOf(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Record<string, unknown>> {
  const extras = fc.oneof({ weight: 4, arbitrary: fc.constant([] as [string, unknown][]) }, fc.array(fc.tuple(extraKey, wrongType), { minLength: 1, maxLength: 3 }));
  return fc.tuple(fc.record(fields), extras).map(([values, extra]) => {
    const o = Object.create(null) as Record<string, unknown>;
    for (const [k, v] of Object.entries(values)) if (v !== ABSENT) o[k] = v;
    for (const [k, v] of extra) o[k] = v;
    return o;
  });
}

/**
 * A request body: the route's JSON value (kept as a value until it is sent, so it
 * can name run-time ids), or hostile text or bytes.
 */
export interface BodySpec {
  kind: 'json' | 'nested' | 'huge' | 'malformed' | 'not-object' | 'bytes' | 'empty';
  /** The JSON value of kind `json`. */
  value?: unknown;
  /** The body of every other kind (undefined: none). */
  raw?: string | Uint8Array;
  /** Content-Type (undefined: no header). */
  contentType: string | undefined;
}

const contentType: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 20, arbitrary: fc.constant('application/json') },
  fc.constantFrom(
    'application/json; charset=utf-8',
    'Application/JSON',
    'application/json; charset=utf-16',
    'text/plain',
    'text/html',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=fuzz',
    'application/xml',
    'application/octet-stream',
    'application/vnd.api+json',
    '',
    undefined,
  ),
);

const MALFORMED = [
  '{',
  '}',
  '{"a":}',
  "{'message_id':'x'}",
  '{"a":1,}',
  '[1,2',
  '{"a":NaN}',
  '{"a":Infinity}',
  '{"a":1e999}',
  '{"a":-0}',
  '/* comment */ {}',
  '\uFEFF{}',
  '{"a":"\\x41"}',
  '{"a":"\\u12"}',
  '{"a":1}{"b":2}',
  '{"a":1} trailing',
  '{"a":"unterminated',
  '{"a":1,"a":2}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  'undefined',
  '\u0000',
];

const NOT_OBJECT = ['null', 'true', '0', '-1', '"text"', '[]', '[{}]', '""', '1e308'];

/** Bytes that are not UTF-8 (overlong NUL, a lone surrogate in CESU-8, 0xFF) inside JSON, and UTF-16 JSON. */
const BAD_BYTES: number[][] = [
  [0x7b, 0x22, 0x74, 0x65, 0x78, 0x74, 0x22, 0x3a, 0x22, 0xc0, 0x80, 0x22, 0x7d],
  [0x7b, 0x22, 0x74, 0x65, 0x78, 0x74, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d],
  [0x7b, 0x22, 0x74, 0x65, 0x78, 0x74, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d],
  [0x7b, 0x22, 0x74, 0x65, 0x78, 0x74, 0x22, 0x3a, 0x22, 0xf8, 0x88, 0x80, 0x80, 0x80, 0x22, 0x7d],
  [0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00],
  [0x00, 0x00, 0x00, 0x00],
];

/** Deeply nested JSON: arrays, objects, and unclosed openings. */
function nested(depth: number, shape: number): string {
  if (shape === 0) return '['.repeat(depth) + ']'.repeat(depth);
  if (shape === 1) return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
  return '['.repeat(depth);
}

/** Bodies around and past the body limit: one long string, many keys, a long array. */
function huge(bytes: number, shape: number, key: string): string {
  if (shape === 0) return `{"${key}":"${'a'.repeat(Math.max(0, bytes - key.length - 7))}"}`;
  if (shape === 1) return `{${Array.from({ length: Math.max(1, Math.floor(bytes / 12)) }, (_, i) => `"k${i}":${i}`).join(',')}}`;
  return `[${'1,'.repeat(Math.max(0, Math.floor(bytes / 2) - 1))}1]`;
}

/**
 * A request body for a route: its JSON object (`json`, usually valid or fuzzed
 * fields) most of the time, else one of the hostile shapes.
 */
export function bodyOf(json: fc.Arbitrary<unknown>, bodyLimit: number, key = 'text'): fc.Arbitrary<BodySpec> {
  const spec = (kind: BodySpec['kind']) => (raw: string | Uint8Array | undefined) => ({ kind, raw });
  const shapes = fc.oneof(
    { weight: 30, arbitrary: json.map((value) => ({ kind: 'json' as const, value })) },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom(64, 1_000, 10_000, 30_000, 100_000), fc.nat(2)).map(([d, s]) => nested(d, s)).map(spec('nested')) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom(bodyLimit - 64, bodyLimit - 1, bodyLimit, bodyLimit + 1, bodyLimit * 4, 1_048_576), fc.nat(2))
        .map(([n, s]) => huge(n, s, key))
        .map(spec('huge')),
    },
    { weight: 2, arbitrary: fc.constantFrom(...MALFORMED).map(spec('malformed')) },
    { weight: 1, arbitrary: fc.constantFrom(...NOT_OBJECT).map(spec('not-object')) },
    { weight: 1, arbitrary: fc.constantFrom(...BAD_BYTES).map((b) => Uint8Array.from(b)).map(spec('bytes')) },
    { weight: 1, arbitrary: fc.constantFrom<string | undefined>('', undefined).map(spec('empty')) },
  );
  return fc.tuple(shapes, contentType).map(([s, ct]): BodySpec => ({ ...s, contentType: s.kind === 'empty' && s.raw === undefined ? undefined : ct }));
}
