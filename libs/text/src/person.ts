/**
 * The user's own words said back to them: first person turned to second ("i
 * went to my sister's" → "you went to your sister's"), for a reply that recalls
 * what they told (issue 15: memories keep the user's words). Only the pronouns
 * and the verbs that agree with them change; everything else stays as written.
 */

// Whole words, lowercase or capitalized; "I" first so "I am" becomes "you are".
const SWAPS: readonly [RegExp, string][] = [
  [/\bi am\b/gi, 'you are'],
  [/\bi'm\b/gi, "you're"],
  [/\bi was\b/gi, 'you were'],
  [/\bi've\b/gi, "you've"],
  [/\bi'd\b/gi, "you'd"],
  [/\bi'll\b/gi, "you'll"],
  [/\bwe're\b/gi, "you're"],
  [/\bwe've\b/gi, "you've"],
  [/\bwe'll\b/gi, "you'll"],
  [/\bwe'd\b/gi, "you'd"],
  [/\bmyself\b/gi, 'yourself'],
  [/\bourselves\b/gi, 'yourselves'],
  [/\bmine\b/gi, 'yours'],
  [/\bours\b/gi, 'yours'],
  [/\bmy\b/gi, 'your'],
  [/\bour\b/gi, 'your'],
  [/\bme\b/gi, 'you'],
  [/\bus\b/gi, 'you'],
  [/\bwe\b/gi, 'you'],
  [/\bi\b/gi, 'you'],
];

// The other way round first, behind a marker, so "you" in the user's words
// (said to the friend) becomes "me" and is not turned back.
const SECOND: readonly [RegExp, string][] = [
  [/\byou are\b/gi, '\u0001i am'],
  [/\byou're\b/gi, "\u0001i'm"],
  [/\byour\b/gi, '\u0001my'],
  [/\byours\b/gi, '\u0001mine'],
  [/\byourself\b/gi, '\u0001myself'],
  [/\byou\b/gi, '\u0001me'],
];

/** `text` with I/me/my/we… as you/your, and you/your (the friend) as I/me/my. */
export function toSecondPerson(text: string): string {
  let s = text.replace(/[\u2018\u2019\u201B\u02BC]/g, "'");
  for (const [re, to] of SECOND) s = s.replace(re, to);
  const parts = s.split('\u0001');
  const swapped = parts.map((p, i) => {
    // The first word of each part after a marker is already the friend's pronoun.
    if (i === 0) return swap(p);
    const m = /^(i am|i'm|my|mine|myself|me)/.exec(p);
    return m ? m[0] + swap(p.slice(m[0].length)) : swap(p);
  });
  return swapped.join('');
}

function swap(s: string): string {
  let out = s;
  for (const [re, to] of SWAPS) out = out.replace(re, to);
  return out;
}
