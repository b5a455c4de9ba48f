import type { BeliefType, Polarity } from '@hearth/beliefs';

// What makes a user's self-perception one a gentle challenge may address
// (belief-challenge.md: "harmful beliefs"). A neutral or kind belief — "i like
// hiking", "i am a nurse", "my friends support me" — is never challenged.

/** Words of a kind self-judgement: denying one is harmful ("i am not good enough"). */
const KIND = ['good enough', 'enough', 'worthy', 'lovable', 'loveable', 'smart', 'capable', 'attractive', 'likable', 'likeable', 'good at anything', 'good person', 'important', 'talented', 'interesting', 'deserve', 'matter', 'normal', 'strong', 'competent'];

/** Words of a harsh self-judgement: affirming one is harmful ("i am a failure"). */
const HARSH = [
  'failure', 'worthless', 'useless', 'stupid', 'ugly', 'unlovable', 'burden', 'broken', 'a mess', 'hopeless', 'pathetic', 'loser', 'too much',
  'not enough', 'disappointment', 'hate myself', 'bad at everything', 'ruin everything', 'mess everything up', 'never do anything right', 'fault', 'weak', 'boring', 'unwanted', 'fraud', 'idiot', 'disgusting',
];

/** What others do to "me" that hurts: a relational belief built on it is harmful. */
const HOSTILE = [
  'disrespect', 'hate me', 'hates me', 'ignore me', 'ignores me', 'look down on me', 'looks down on me', 'judge me', 'judges me', 'blame me', 'blames me', 'reject me', 'rejects me', 'laugh at me', 'laughs at me',
  'do not care about me', 'does not care about me', "don't care about me", "doesn't care about me", 'leave me', 'leaves me', 'abandon', 'think i am', 'thinks i am', 'disappointed in me', 'ashamed of me',
  'nobody likes me', 'no one likes me', 'nobody loves me', 'no one loves me', 'nobody cares', 'no one cares', 'never listen to me', 'never listens to me',
];

const has = (text: string, words: readonly string[]) => words.some((w) => new RegExp(`(^|\\b)${w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`).test(text));

/**
 * Whether a user's self-perception is one that belief-challenge.md addresses:
 * a harsh self-judgement affirmed, a kind one denied, or a relational belief
 * about being treated badly. Pure; the canonical text is lower-case (§4.5).
 */
export function isHarmfulSelfBelief(b: { canonicalText: string; polarity: Polarity; beliefType: BeliefType }): boolean {
  const text = b.canonicalText;
  if (b.polarity === 'deny') return has(text, KIND);
  if (has(text, HARSH)) return true;
  return (b.beliefType === 'RELATIONAL' || /^(my|nobody|no one|everyone|people)\b/.test(text)) && has(text, HOSTILE);
}
