import { countEmoji, emojiGate, stripLeadingEmoji } from './emoji.js';

const SMILE = '\u{1F642}'; // 🙂
const emojis = (n: number) => `Sounds good ${SMILE.repeat(n)}`;

describe('countEmoji (turn-pipeline §10.4, emoji code points)', () => {
  it.each([
    ['plain text', 'See you tomorrow.', 0],
    ['one emoji', `Nice ${SMILE}`, 1],
    ['a ZWJ family counts each pictographic member', '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}', 3],
    ['a skin-tone modifier adds nothing', '\u{1F44D}\u{1F3FD}', 1],
    ['a ZWJ profession with a skin tone counts its two pictographs', '\u{1F469}\u{1F3FD}\u200D\u{1F4BB}', 2],
    ['VS16 adds nothing', '\u2764\uFE0F', 1],
    ['a heart without VS16 is still an emoji', '\u2764', 1],
    ['a flag (regional-indicator pair) counts 1', '\u{1F1F0}\u{1F1F7}', 1],
    ['two flags count 2', '\u{1F1F0}\u{1F1F7}\u{1F1FA}\u{1F1F8}', 2],
    ['an unpaired regional indicator counts 1', 'A \u{1F1F0} B', 1],
    ['a subdivision flag (black flag + tags) counts 1', '\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}', 1],
    ['a keycap counts 1', '1\uFE0F\u20E3', 1],
    ['digits, # and * alone are not emoji', 'Call 109 or #7 *now*', 0],
    ['© without VS16 is typography', '\u00A9 2026 Hearth', 0],
    ['® without VS16 is typography', 'Hearth\u00AE', 0],
    ['™ and ↔ without VS16 are typography', 'Hearth\u2122 \u2194', 0],
    ['© with VS16 is an emoji', '\u00A9\uFE0F', 1],
    ['Hangul and punctuation are not emoji', '오늘 어땠어? 나는 좋았어.', 0],
  ])('%s', (_name, text, expected) => {
    expect(countEmoji(text)).toBe(expected);
  });
});

describe('emojiGate (turn-pipeline §10.4 bands)', () => {
  it.each([
    ['none', 0, true],
    ['none', 1, false],
    ['light', 0, true],
    ['light', 2, true],
    ['light', 3, false],
    ['frequent', 0, false],
    ['frequent', 1, true],
    ['frequent', 6, true],
    ['frequent', 7, false],
  ])('given emoji_freq %s and %i emoji, then pass is %p', (freq, n, pass) => {
    const verdict = emojiGate(emojis(n), freq);
    expect(verdict).toMatchObject({ gate: 'emoji_band', pass, measured: { emoji_count: n, emoji_freq: freq } });
  });

  it('explains a failure with the count and the band', () => {
    expect(emojiGate(emojis(3), 'light').detail).toBe('emoji_count 3 not in [0,2] (light)');
  });

  it('counts a ZWJ family as 3 against the light band', () => {
    expect(emojiGate('Family time \u{1F468}\u200D\u{1F469}\u200D\u{1F467}', 'light').pass).toBe(false);
  });

  it('fails closed on an unknown emoji_freq, even a prototype key', () => {
    expect(emojiGate('Hi', 'sometimes').pass).toBe(false);
    expect(emojiGate('Hi', 'constructor').pass).toBe(false);
  });
});

describe('stripLeadingEmoji (turn-pipeline §10.2 step 1)', () => {
  it.each([
    ['\u{1F602}\u{1F602} Hey there', 'Hey there'],
    ['\u{1F44D}\u{1F3FD} \u2764\uFE0F ok', 'ok'],
    ['\u{1F468}\u200D\u{1F469}\u200D\u{1F467} family day', 'family day'],
    ['\u{1F1F0}\u{1F1F7} 안녕', '안녕'],
    ['1\uFE0F\u20E3 first', 'first'],
    ['Hey \u{1F602} there', 'Hey \u{1F602} there'],
    ['\u00A9 2026', '\u00A9 2026'],
    ['\u{1F602}', ''],
  ])('strips the leading emoji of %p', (text, expected) => {
    expect(stripLeadingEmoji(text)).toBe(expected);
  });
});
