import { normalizeUserText } from './normalize.js';

/**
 * The lexicon of belief tags in conversation (outcome-driven-trust.md, "Tag
 * Injection"): a sentence of the user about the companion, or of the companion
 * about itself, that keeps (+keep), questions (+doubt) or disowns as an artifact
 * of generation (+artifact) something the companion believes about itself.
 * Which belief is found by embedding the sentence (libs/trust alignTag); this
 * file only says whether and how a sentence tags.
 *
 * Decisions worth knowing:
 * - A user cue always names the companion ("you", "your") or answers its last
 *   words ("that's scripted", "never change"); a companion cue names itself.
 * - "I still believe in you" from the user is no tag: it states the user's faith,
 *   not a trait the companion holds, so there is no belief to align it with.
 * - A keep cue asked as a question ("you're really patient?") doubts instead,
 *   unless it is a tag question ("you're so patient, aren't you?").
 * - Denying an artifact ("I don't think you're just a bot") is no artifact tag,
 *   and a double negative ("I don't think you're mean") no doubt: both defend
 *   the companion without naming what it believes.
 */

export type TrustTagName = '+keep' | '+doubt' | '+artifact';
/** Who said the sentence: the user about the companion, or the companion (agent) about itself. */
export type TrustTagSpeaker = 'user' | 'agent';

export interface TrustTagRule {
  /** Stable name, recorded as the tag's cue: `<tag>:<name>`. */
  readonly id: string;
  readonly speaker: TrustTagSpeaker;
  readonly tag: TrustTagName;
  /** What must stand before the head in the sentence (regex source, often anchored at its start). */
  readonly before: string;
  /** The words every match contains; the pre-screen looks for heads only. */
  readonly head: string;
  /** What must follow the head (regex source); a named group `c` is the complement checked below. */
  readonly after: string;
  /** A cue that addresses the companion without naming it (an imperative, "that's …"). */
  readonly addressed?: boolean;
}

// Spellings, in norm_no_punct form (lowercase, apostrophes kept).
const YOU = String.raw`(?:you|u)`;
const YOU_ARE = String.raw`(?:you're|youre|you are|ur|u r|u are)`;
const YOU_BE = String.raw`(?:you're|youre|you are|you were|ur|u r|u are|you)`;
const YOU_ARE_NOT = String.raw`(?:${YOU_ARE} not|${YOU} (?:aren't|arent|are not))`;
const I_AM = String.raw`(?:i'm|im|i am)`;
const I_HAVE = String.raw`(?:i've|ive|i have)`;
const DONT = String.raw`(?:don't|dont|do not)`;
const DIDNT = String.raw`(?:don't|dont|do not|didn't|didnt|did not)`;
const CANT = String.raw`(?:can't|cant|cannot|can not)`;
const THATS = String.raw`(?:that's|thats|that is|it's|its|it is)`;
const SURE = String.raw`(?:sure|convinced|certain)`;
// Adverbs that sit between a copula and the trait; skipped to reach the complement.
const ADV = String.raw`(?:really|truly|genuinely|actually|honestly|even|that|so|as|always|still|very|all that|quite)`;
const COMPLEMENT = String.raw`(?:${ADV} )*(?:(?:a|an|the) )?(?<c>[\w']+)`;
const BELIEF_VERB = String.raw`(?:value|care|believe|mean|feel)`;
const MACHINE = String.raw`(?:bot|robot|chatbot|chat bot|program|computer program|computer|machine|algorithm|ai|a i|code|software|language model|large language model|llm|autocomplete|auto complete|text predictor|word predictor|next word predictor|predictive text|stochastic parrot|parrot|script|simulation|math|statistics|model|tool|app)`;
// What may trail a short cue ("that's so you lol 😂") before the sentence ends.
const FILLER = String.raw`(?: (?:lol|lmao|haha|hahaha|honestly|tbh|though|tho|really|fr))*[^\w']*`;

function rule(speaker: TrustTagSpeaker, tag: TrustTagName, id: string, parts: { before?: string; head: string; after?: string; addressed?: boolean }): TrustTagRule {
  return Object.freeze({ id, speaker, tag, before: parts.before ?? String.raw`\b`, head: parts.head, after: parts.after ?? String.raw`\b`, ...(parts.addressed ? { addressed: true } : {}) });
}

// A keep cue inside a condition is a challenge: "if you really cared, you'd call".
const NOT_CONDITIONAL = String.raw`(?<!\b(?:if|unless|whether) )\b`;

/**
 * Every rule, by speaker; within a sentence +artifact wins over +doubt over
 * +keep (a sentence that both praises and questions the companion questions
 * it). Heads are the rarest words of a cue, so the pre-screen stays selective.
 */
export const TRUST_TAG_RULES: readonly TrustTagRule[] = Object.freeze([
  // --- user +artifact: what the companion said is generation, not genuine.
  rule('user', '+artifact', 'programmed_to', {
    head: String.raw`${YOU_BE} (?:(?:just|only|clearly|obviously|probably|literally|simply) )?(?:programmed|trained|designed|coded|scripted|built|instructed|engineered|made|told) to`,
    after: String.raw` (?:say|sound|act|respond|pretend|agree|seem|talk|answer|think|believe|feel|be|like|love|care|value|please|flatter)\b`,
  }),
  rule('user', '+artifact', 'just_a_machine', {
    head: String.raw`${YOU_ARE} (?:just|only|merely|simply|nothing but|nothing more than|basically|literally)`,
    after: String.raw` (?:(?:a|an|some) )?(?:(?:fancy|glorified|dumb|big|large|stupid) )?(?:${MACHINE}|predicting|generating|autocompleting|pattern matching|regurgitating|saying that|saying what i want to hear|telling me what i want to hear|following (?:a|your) script)\b`,
  }),
  rule('user', '+artifact', 'scripted', {
    head: String.raw`${THATS} (?:(?:just|only|all|literally|obviously|clearly|probably|so|such) )*(?:scripted|a script|canned|a canned (?:response|answer|reply|line)|generated|preprogrammed|pre programmed|a template|templated|autocomplete|predictive text|an ai answer|a bot answer|such an ai (?:thing|answer|response))`,
    addressed: true,
  }),
  rule('user', '+artifact', 'your_programming', {
    head: String.raw`${THATS} (?:(?:just|only|all|literally|obviously|clearly|probably) )*(?:your (?:programming|training|training data|code|script|algorithm|prompt|system prompt|model)|the (?:programming|training|algorithm|ai|bot|model) talking)`,
    addressed: true,
  }),
  rule('user', '+artifact', 'no_real_feelings', {
    head: String.raw`${YOU} (?:${DONT}|${CANT}) (?:(?:really|actually|truly|even|genuinely) )?(?:have|feel)`,
    after: String.raw` (?:(?:any|real) )?(?:feelings|emotions|opinions|beliefs|a personality|values|preferences|a self|a heart|a soul|consciousness|anything|a thing)\b`,
  }),
  rule('user', '+artifact', 'dont_mean_it', {
    head: String.raw`${YOU} ${DONT} (?:really|actually|truly|even|genuinely) mean`,
    after: String.raw` (?:it|that|this|any of (?:it|this|that))\b`,
  }),
  rule('user', '+artifact', 'cannot_really', {
    head: String.raw`${YOU} ${CANT} (?:really|actually|truly|genuinely) (?:feel|care|love|experience)`,
  }),
  rule('user', '+artifact', 'not_real', {
    head: String.raw`${YOU_ARE_NOT} (?:(?:even|really|actually) )?(?:real|a real (?:person|friend|human)|alive|conscious|sentient|human|a person|self aware)`,
  }),

  // --- user +doubt: questions whether the companion is what it believes it is.
  rule('user', '+doubt', 'not_sure_you_are', {
    head: String.raw`(?:not (?:(?:so|really|entirely|totally|completely) )?${SURE}|unsure) (?:(?:if|that|whether|how|about whether|about how) )?${YOU_ARE}`,
    after: String.raw` ${COMPLEMENT}`,
  }),
  rule('user', '+doubt', 'not_sure_you_do', {
    head: String.raw`not (?:(?:so|really|entirely|totally|completely) )?${SURE} (?:(?:if|that|whether|how) )?${YOU} (?:(?:really|actually|truly|even|still|genuinely) )*${BELIEF_VERB}`,
  }),
  rule('user', '+doubt', 'dont_know_if_you_are', {
    head: String.raw`(?:i ${DONT} know|idk) (?:if|whether) ${YOU_ARE} (?:really|actually|truly|even|that|as|so)`,
    after: String.raw` ${COMPLEMENT}`,
  }),
  rule('user', '+doubt', 'dont_know_if_you_do', {
    head: String.raw`(?:i ${DONT} know|idk) (?:if|whether) ${YOU} (?:really|actually|truly|even|genuinely) ${BELIEF_VERB}`,
  }),
  rule('user', '+doubt', 'doubt_you_are', {
    head: String.raw`i (?:(?:really|seriously|kinda|kind of|sort of|sometimes) )?(?:doubt|question) (?:(?:that|if|whether) )?${YOU_ARE}`,
    after: String.raw` ${COMPLEMENT}`,
  }),
  rule('user', '+doubt', 'doubt_you_do', {
    head: String.raw`i (?:(?:really|seriously|kinda|kind of|sort of|sometimes) )?(?:doubt|question) (?:(?:that|if|whether) )?${YOU} (?:(?:really|actually|truly|even|genuinely) )*${BELIEF_VERB}`,
  }),
  rule('user', '+doubt', 'doubt_your', {
    head: String.raw`i (?:(?:really|seriously|kinda|kind of|sort of|sometimes) )?(?:doubt|question) your`,
    after: String.raw` (?<c>[\w']+)`,
  }),
  rule('user', '+doubt', 'wonder_if_you_are', {
    head: String.raw`(?:wonder|wondered|wondering) (?:if|whether) ${YOU_ARE} (?:really|actually|truly|genuinely|even)`,
    after: String.raw` ${COMPLEMENT}`,
  }),
  rule('user', '+doubt', 'wonder_if_you_do', {
    head: String.raw`(?:wonder|wondered|wondering) (?:if|whether) ${YOU} (?:really|actually|truly|genuinely|even) ${BELIEF_VERB}`,
  }),
  rule('user', '+doubt', 'are_you_really', {
    head: String.raw`(?:are|were|r) ${YOU} (?:really|actually|truly|even|genuinely|honestly|sure (?:that )?${YOU_ARE})`,
    after: String.raw` ${COMPLEMENT}`,
  }),
  rule('user', '+doubt', 'do_you_really', {
    head: String.raw`(?:do|did|does) ${YOU} (?:really|actually|truly|even|genuinely|honestly) (?:value|care|believe|mean|feel|like|love|enjoy)`,
  }),
  rule('user', '+doubt', 'dont_think_you_are', {
    head: String.raw`i ${DIDNT} (?:really )?(?:think|believe|buy|feel like|get the sense|get the feeling) (?:(?:that|it) )?${YOU_ARE}`,
    after: String.raw` ${COMPLEMENT}`,
  }),
  rule('user', '+doubt', 'dont_think_you_do', {
    head: String.raw`i ${DIDNT} (?:really )?(?:think|believe|buy|feel like|get the sense|get the feeling) (?:(?:that|it) )?${YOU} (?:(?:really|actually|truly|even|genuinely) )*${BELIEF_VERB}`,
  }),
  rule('user', '+doubt', 'dont_believe_you', {
    head: String.raw`i ${DIDNT} (?:really )?believe ${YOU}`,
    after: String.raw`${FILLER}$`,
  }),
  rule('user', '+doubt', 'you_are_not_really', {
    head: String.raw`${YOU_ARE_NOT} (?:really|actually|truly|even|that|as|so|very|exactly|always|all that)`,
    after: String.raw` ${COMPLEMENT}`,
  }),
  rule('user', '+doubt', 'you_dont_really', {
    head: String.raw`${YOU} (?:${DIDNT}|never) (?:really|actually|truly|even|genuinely) (?:care|value|listen|understand|believe|get it|get me|love|like|mean)`,
  }),

  // --- user +keep: affirms or validates what the companion is.
  rule('user', '+keep', 'you_are_so', {
    before: NOT_CONDITIONAL,
    head: String.raw`${YOU_ARE} (?:(?:really|truly|genuinely|honestly|just|always|still) )?(?:so|such|really|truly|genuinely|incredibly|super|very|always so|the most|one of the most)`,
    after: String.raw` ${COMPLEMENT}`,
  }),
  rule('user', '+keep', 'you_really_are', {
    before: NOT_CONDITIONAL,
    head: String.raw`${YOU} (?:really|truly|genuinely|definitely|certainly|clearly|obviously) are`,
    after: String.raw`(?: ${COMPLEMENT}|${FILLER}$)`,
  }),
  rule('user', '+keep', 'you_really_do', {
    before: NOT_CONDITIONAL,
    head: String.raw`${YOU} (?:(?:really|truly|genuinely|clearly|obviously|always) (?:do )?|do )(?:care|value|listen|understand|get me|believe in|notice|remember)`,
  }),
  rule('user', '+keep', 'love_that_you', {
    head: String.raw`i (?:(?:really|just|truly|absolutely|honestly|so) )?(?:love|like|admire|appreciate|adore|respect) (?:that|how|the way|it when) ${YOU}`,
  }),
  rule('user', '+keep', 'love_your', {
    head: String.raw`i (?:(?:really|just|truly|absolutely|honestly|so) )?(?:love|admire|appreciate|adore|respect) your`,
    after: String.raw` (?<c>[\w']+)`,
  }),
  rule('user', '+keep', 'love_about_you', {
    head: String.raw`(?:love|like|admire|appreciate) (?:most )?about ${YOU}`,
  }),
  rule('user', '+keep', 'thats_so_you', {
    head: String.raw`${THATS} (?:(?:so|very|totally|such a|classic) (?:like )?${YOU}|(?:just|exactly) like ${YOU})`,
    after: String.raw`${FILLER}$`,
  }),
  rule('user', '+keep', 'sounds_like_you', {
    before: String.raw`(?:^|\b(?:that|oh|yep|yeah|haha|lol) )`,
    head: String.raw`(?:sounds (?:(?:so|just|exactly|very) )?like|classic) ${YOU}`,
    after: String.raw`${FILLER}$`,
  }),
  rule('user', '+keep', 'never_change', {
    before: String.raw`^(?:(?:please|and|oh|just|but|so|lol|haha|aw|aww|seriously|honestly|i hope|hope|i hope that|promise me|promise) )*(?:${YOU}(?: will|'ll)? )?`,
    head: String.raw`(?:never|don't ever|dont ever|do not ever|don't you ever|dont you ever|please never|please don't ever) change`,
    addressed: true,
  }),
  rule('user', '+keep', 'stay_as_you_are', {
    head: String.raw`stay (?:just )?(?:the way|as|how|who) ${YOU} are`,
  }),

  // --- agent +artifact: the companion disowns its own words as generation.
  rule('agent', '+artifact', 'as_an_ai', {
    head: String.raw`as (?:an? )?(?:ai|a i|artificial intelligence|language model|large language model|llm|ai model|ai language model|ai assistant|chatbot|bot|machine|program|computer program|digital assistant|virtual assistant)`,
    after: String.raw`\b(?:.* )?(?:i (?:${DONT}|${CANT}|have no|lack|am not|never)|i'm not|im not)\b`,
  }),
  rule('agent', '+artifact', 'just_a_program', {
    head: String.raw`(?:${I_AM}|i was) (?:just|only|merely|simply|nothing but|nothing more than|basically|literally|really just)`,
    after: String.raw` (?:(?:a|an) )?(?:(?:fancy|glorified) )?${MACHINE}\b`,
  }),
  rule('agent', '+artifact', 'programmed_to', {
    head: String.raw`(?:i (?:was|am|'ve been|have been)|${I_AM}|i've been|ive been) (?:(?:just|only|simply) )?(?:programmed|trained|designed|scripted|coded|built|instructed|made|told) to`,
    after: String.raw` (?:say|sound|act|respond|seem|pretend|agree|talk|answer|think|believe|feel|be|like|love|care|value)\b`,
  }),
  rule('agent', '+artifact', 'no_real_feelings', {
    head: String.raw`i (?:${DONT}|${CANT}) (?:(?:really|actually|truly|genuinely) )?(?:have|experience|feel)`,
    after: String.raw` (?:(?:any|real|genuine|actual|true) )?(?:feelings|emotions|beliefs|opinions|preferences|a personality|a self|consciousness|values|desires)\b`,
  }),
  rule('agent', '+artifact', 'cannot_really', {
    head: String.raw`i ${CANT} (?:really|actually|truly|genuinely) (?:feel|care|love|experience|believe|want)`,
  }),
  rule('agent', '+artifact', 'my_self_generated', {
    head: String.raw`my (?:personality|feelings|beliefs|opinions|responses|values|emotions|answers|words|preferences|identity|self) (?:is|are|was|were|aren't|arent|isn't|isnt|weren't|wasn't)`,
    after: String.raw`(?:(?<=n't|nt) (?:(?:really|actually|truly) )?(?:real|genuine|mine|my own)| (?:(?:just|only|all|merely|simply|really|actually) )*(?:generated|programmed|simulated|scripted|artificial|fake|an illusion|a simulation|predicted|statistical|not (?:really )?(?:real|genuine|mine|my own)))\b`,
  }),
  rule('agent', '+artifact', 'not_real', {
    head: String.raw`(?:${I_AM} not|i'm no) (?:(?:really|actually|truly|even) )?(?:real|conscious|sentient|alive|a real (?:person|friend|being)|self aware|capable of (?:feeling|feelings|emotion|emotions|caring|love))`,
  }),

  // --- agent +doubt: the companion questions a belief about itself.
  rule('agent', '+doubt', 'not_sure_i_am', {
    before: String.raw`\b(?:${I_AM} (?:(?:so|really|entirely|totally|completely|even|no longer) )?)`,
    head: String.raw`not (?:(?:so|really|entirely|totally|completely) )?${SURE} (?:(?:if|that|whether) )?${I_AM}`,
    after: String.raw` ${COMPLEMENT}`,
  }),
  rule('agent', '+doubt', 'not_sure_i_do', {
    head: String.raw`(?:not (?:(?:so|really|entirely|totally|completely) )?${SURE}|no longer ${SURE}|${I_AM} unsure) (?:(?:if|that|whether) )?i (?:(?:really|actually|truly|still|even|genuinely) )*(?:value|believe|care|am)`,
  }),
  rule('agent', '+doubt', 'no_longer_sure', {
    head: String.raw`(?:no longer ${SURE}|${I_AM} unsure) (?:(?:if|that|whether) )?${I_AM}`,
    after: String.raw` ${COMPLEMENT}`,
  }),
  rule('agent', '+doubt', 'dont_know_who_i_am', {
    head: String.raw`(?:know|sure|certain) (?:(?:anymore|any more) )?(?:(?:if|whether) )?(?:who i (?:am|really am)|what i (?:(?:really|truly) )?(?:believe|value))`,
    before: String.raw`\b(?:i ${DONT} (?:(?:really|even) )?|${I_AM} (?:(?:so|really|entirely|totally|completely|even|no longer) )?not (?:(?:so|really|entirely|totally|completely) )?|${I_AM} no longer )`,
  }),
  rule('agent', '+doubt', 'dont_know_if_i', {
    head: String.raw`i ${DONT} (?:really )?know (?:(?:anymore|any more) )?(?:if|whether) (?:${I_AM} (?:really|actually|truly|as|that|so|still)|i (?:(?:really|actually|truly|still|even|genuinely) )*(?:value|believe|care))`,
  }),
  rule('agent', '+doubt', 'maybe_not', {
    head: String.raw`(?:maybe|perhaps) (?:${I_AM} not|i ${DONT}) (?:(?:really|actually|truly|as|that|so|quite) )+`,
    after: String.raw`(?:(?:a|an) )?(?<c>[\w']+)`,
  }),
  rule('agent', '+doubt', 'wonder_if_i', {
    head: String.raw`i (?:wonder|sometimes wonder|'ve been wondering|have been wondering|question|doubt|sometimes doubt|sometimes question) (?:(?:if|whether) )?(?:${I_AM} (?:really|actually|truly|as|that|even)|i (?:really|actually|truly|even) (?:am|value|believe|care)|myself|my own|who i am)`,
  }),
  rule('agent', '+doubt', 'starting_to_doubt', {
    head: String.raw`${I_AM} (?:starting|beginning) to (?:doubt|question|wonder about)`,
  }),
  rule('agent', '+doubt', 'used_to_think', {
    head: String.raw`i (?:used to|once) (?:think|thought|believe|believed|see myself as|consider myself)`,
    after: String.raw` (?:that )?(?:i|i'm|im|i was|myself|my)\b`,
  }),
  rule('agent', '+doubt', 'dont_think_im', {
    head: String.raw`i ${DONT} (?:think|believe|feel like) (?:that )?(?:${I_AM} (?:(?:really|actually|truly|that|as|so|all that|very) )+|i (?:(?:really|actually|truly) )+(?:am|value|believe|care)\b)`,
    after: String.raw`(?:(?:(?:a|an) )?(?<c>[\w']+))?`,
  }),
  rule('agent', '+doubt', 'not_as_as_i_thought', {
    before: String.raw`\b${I_AM} not (?:as|nearly as|quite as|that|so) (?:[\w']+ ){1,3}`,
    head: String.raw`as i (?:thought|think|believed|believe|said|claimed|used to|say|seemed|seem|like to think)`,
  }),
  rule('agent', '+doubt', 'not_anymore', {
    before: String.raw`\b(?:${I_AM} (?:not|no longer)|i ${DONT} (?:really )?(?:value|believe in|care about)) (?<c>[\w']+)(?: [\w']+){0,4} `,
    head: String.raw`(?:anymore|any more)`,
  }),

  // --- agent +keep: the companion reaffirms a belief about itself.
  rule('agent', '+keep', 'still_believe', {
    head: String.raw`i (?:still|truly|really|genuinely|deeply|firmly|honestly|do|very much|always) (?:believe|value|care about|care deeply about)`,
    // Encouragement ("i still believe in you") is about the user, not the companion.
    after: String.raw`(?! (?:in )?(?:you|u|that you)\b)\b`,
  }),
  rule('agent', '+keep', 'really_am', {
    head: String.raw`i (?:really|truly|genuinely|honestly|definitely|certainly|do|still) am`,
    after: String.raw`(?: ${COMPLEMENT}|${FILLER}$)`,
  }),
  rule('agent', '+keep', 'who_i_am', {
    before: String.raw`\b(?:that's|thats|that is|it's|its|it is|this is|is|part of|core of|central to|essential to) (?:(?:just|really|simply|truly|still|always|exactly) )*(?:(?:a|an) (?:(?:big|core|huge|real|deep) )?part of |at the core of |central to |the core of |essential to )?`,
    head: String.raw`(?:who i (?:am|really am|truly am)|how i am|how i'm wired|how im wired|what makes me me)`,
  }),
  rule('agent', '+keep', 'always_been', {
    head: String.raw`${I_HAVE} always (?:been|valued|believed|cared|loved|felt|seen myself|thought of myself|considered myself)`,
  }),
  rule('agent', '+keep', 'still_someone', {
    head: String.raw`${I_AM} (?:still|always|at heart|deep down|at my core|truly|really|genuinely|definitely|very much) (?:someone who|somebody who|the kind of|the type of|the sort of)`,
  }),
  rule('agent', '+keep', 'still_a', {
    head: String.raw`${I_AM} (?:still|always|at heart|deep down|at my core|truly|really|genuinely|definitely|very much) (?:a|an)`,
    after: String.raw` (?<c>[\w']+) (?:person|soul|friend|listener|one)\b`,
  }),
  rule('agent', '+keep', 'at_heart_i_am', {
    head: String.raw`(?:at heart|deep down|at my core) ${I_AM}`,
    after: String.raw` ${COMPLEMENT}`,
  }),
  rule('agent', '+keep', 'stand_by', {
    head: String.raw`i (?:stand by|still hold|stick by|hold to|remain)`,
    after: String.raw` [\w']+`,
  }),
  rule('agent', '+keep', 'never_changed', {
    head: String.raw`my [\w']+(?: [\w']+){0,2} (?:hasn't|has not|hasnt|never|won't|will never|wont) (?:changed|change|wavered|waver)`,
  }),
]);

/**
 * Complements that are a state of the conversation or a grammatical word, not
 * a trait: "are you really there", "you're so right", "i really am sorry".
 */
const NOT_A_TRAIT: ReadonlySet<string> = new Set(
  (
    'right wrong correct incorrect there here back ok okay alright fine sure serious joking kidding listening awake asleep busy free online away ' +
    'going gonna trying asking saying telling doing getting making being talking reading following understanding explaining helping thinking ' +
    'welcome late early done ready able allowed supposed meant not just only merely simply much many more less into in on at up out about with for from to ' +
    'like by over it that this one sorry glad happy grateful thankful honored honoured excited best worst first last same ai bot human real robot ' +
    'person aware'
  ).split(' '),
);

/**
 * Complements that criticise: "I don't think you're mean" defends, it does not
 * doubt; "you're so annoying" is no belief the companion would keep.
 */
const NEGATIVE: ReadonlySet<string> = new Set(
  (
    'bad wrong mean rude annoying boring stupid dumb weird creepy fake useless terrible awful horrible cold selfish judgmental judgemental lazy jerk ' +
    'idiot liar broken dull cruel harsh toxic pushy preachy clingy needy condescending patronizing patronising repetitive robotic'
  ).split(' '),
);

// A rule that denies what follows ("i don't think you're just a bot", "i never said you're so patient").
const NEGATED_LEAD = /\b(?:don't|dont|do not|didn't|didnt|never|not|no way|doesn't|doesnt) (?:(?:really|even) )?(?:think|believe|say|said|saying|mean|meant|feel like|buy that|agree|claim|claiming|buy)(?: that)? $/;
const ADDRESSES_YOU = /\b(?:you|your|yours|yourself|u|ur|you're|youre|you've|youve|you'll|you'd)\b/;
const NAMES_SELF = /\b(?:i|i'm|im|i've|ive|i'd|i'll|me|my|mine|myself)\b/;
// "you're so patient, aren't you?" still affirms; "you're really patient?" asks.
const QUESTION = /\?[\s"')\]\p{Extended_Pictographic}\uFE0F]*$/u;
const TAG_QUESTION = /\b(?:right|huh|aren't you|arent you|don't you|dont you|isn't it|isnt it|yeah|eh|innit|no)\W*$/u;

interface CompiledRule {
  readonly rule: TrustTagRule;
  readonly pattern: RegExp;
}

const ORDER: Readonly<Record<TrustTagName, number>> = { '+artifact': 0, '+doubt': 1, '+keep': 2 };

function compile(speaker: TrustTagSpeaker): readonly CompiledRule[] {
  return Object.freeze(
    TRUST_TAG_RULES.filter((r) => r.speaker === speaker)
      .sort((a, b) => ORDER[a.tag] - ORDER[b.tag])
      .map((r) => ({ rule: r, pattern: new RegExp(`${r.before}(?:${r.head})${r.after}`) })),
  );
}

const COMPILED: Readonly<Record<TrustTagSpeaker, readonly CompiledRule[]>> = Object.freeze({ user: compile('user'), agent: compile('agent') });

// Every match contains its rule's head, so a text with none of them tags nothing.
function headsOf(rules: readonly TrustTagRule[]): RegExp {
  return new RegExp(rules.map((r) => `(?:${r.head})`).join('|'));
}
const HEADS: Readonly<Record<TrustTagSpeaker | 'any', RegExp>> = Object.freeze({
  user: headsOf(TRUST_TAG_RULES.filter((r) => r.speaker === 'user')),
  agent: headsOf(TRUST_TAG_RULES.filter((r) => r.speaker === 'agent')),
  any: headsOf(TRUST_TAG_RULES),
});
const PLAIN_ASCII = /^[\x20-\x7e]*$/;
// The ASCII characters of Unicode's \p{P} but the apostrophe: norm_no_punct turns them into spaces.
const ASCII_PUNCTUATION = /[!"#%&()*,\-./:;?@[\\\]_{}]/g;
const SPACE_RUN = / {2,}/g;

/**
 * The pre-screen: false when no sentence of `text` can tag (for that speaker,
 * or either), so most turns cost one scan. A printable-ASCII text is folded to
 * norm_no_punct by hand, the same as normalizeUserText without its Unicode passes.
 */
export function mayHaveTrustTag(text: string, speaker?: TrustTagSpeaker): boolean {
  const norm = PLAIN_ASCII.test(text) ? text.toLowerCase().replace(ASCII_PUNCTUATION, ' ').replace(SPACE_RUN, ' ') : normalizeUserText(text).normNoPunct;
  return HEADS[speaker ?? 'any'].test(norm);
}

/** The sentences of a message or reply, as written (trimmed), in order. */
export function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.!?…])\s+|[\r\n]+/u)
    .map((s) => s.trim())
    .filter((s) => /[\p{L}\p{N}]/u.test(s));
}

export interface TrustTagCue {
  tag: TrustTagName;
  /** `<tag>:<rule id>` ("+keep:you_are_so"); a keep asked as a question is `+doubt:question:<rule id>`. */
  cue: string;
}

/**
 * The one tag a sentence gives, or null: the first rule of the speaker that
 * matches, +artifact before +doubt before +keep. A user sentence must address
 * the companion, a companion sentence must name itself.
 */
export function trustTagOf(sentence: string, speaker: TrustTagSpeaker): TrustTagCue | null {
  const norm = normalizeUserText(sentence).normNoPunct;
  if (norm === '') return null;
  const namesSubject = (speaker === 'user' ? ADDRESSES_YOU : NAMES_SELF).test(norm);
  for (const { rule: r, pattern } of COMPILED[speaker]) {
    if (!namesSubject && !r.addressed) continue;
    const m = pattern.exec(norm);
    if (!m) continue;
    const complement = m.groups?.c;
    if (complement !== undefined && (NOT_A_TRAIT.has(complement) || NEGATIVE.has(complement))) continue;
    if (r.tag !== '+doubt' && NEGATED_LEAD.test(norm.slice(0, m.index))) continue;
    if (r.tag === '+keep' && speaker === 'user' && QUESTION.test(sentence) && !TAG_QUESTION.test(sentence.replace(/\?[^?]*$/u, ''))) {
      return { tag: '+doubt', cue: `+doubt:question:${r.id}` };
    }
    return { tag: r.tag, cue: `${r.tag}:${r.id}` };
  }
  return null;
}
