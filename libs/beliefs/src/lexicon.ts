// Word lists of the decomposer, as data. Everything here is English and
// lowercase; texts are lowercased and their contractions expanded before they
// are matched. The lists are part of the extractor version (§6): changing one
// changes what is extracted.

/** §4.5 contractions, expanded before matching and hashing (longest forms first). */
export const CONTRACTIONS: readonly (readonly [string, string])[] = [
  ["can't", 'cannot'],
  ["won't", 'will not'],
  ["shan't", 'shall not'],
  ["ain't", 'am not'],
  ["let's", 'let us'],
  ["i'm", 'i am'],
  ["it's", 'it is'],
  ["that's", 'that is'],
  ["there's", 'there is'],
  ["what's", 'what is'],
  ["he's", 'he is'],
  ["she's", 'she is'],
  ["n't", ' not'],
  ["'re", ' are'],
  ["'ve", ' have'],
  ["'ll", ' will'],
  ["'d", ' would'],
];

/** Chat spellings without the apostrophe, as whole words. */
export const BARE_CONTRACTIONS: Readonly<Record<string, string>> = {
  im: 'i am',
  ive: 'i have',
  dont: 'do not',
  doesnt: 'does not',
  didnt: 'did not',
  cant: 'cannot',
  isnt: 'is not',
  arent: 'are not',
  wasnt: 'was not',
  werent: 'were not',
  havent: 'have not',
  hasnt: 'has not',
  wouldnt: 'would not',
  couldnt: 'could not',
  shouldnt: 'should not',
};

/** §4.1 mode heuristics. */
export const MODE_CUES = {
  journaling: ['dear diary', 'journal entry', 'note to self'],
  roleplay: ["let's pretend", 'let us pretend', 'pretend that', "pretend you're", 'pretend you are', 'roleplay', 'role play', 'in character'],
  introspection: ["i've been thinking about myself", 'i have been thinking about myself', 'i realize i', 'i realise i', "i've noticed i", 'i have noticed i', 'i noticed that i', 'when i look at myself'],
  heated: ['!!'],
} as const;

/** §4.1 profanity penalty; a word matches when it starts with one of these stems. */
export const PROFANITY_STEMS: readonly string[] = ['fuck', 'shit', 'damn', 'crap', 'bitch', 'asshole', 'bastard', 'piss', 'dick', 'wtf', 'stfu', 'ffs', 'bullshit'];

/** §4.2 coordinating words: a split only before an independent clause. */
export const COORDINATORS: readonly string[] = ['and', 'but', 'however', 'although', 'though', 'yet', 'so', 'while', 'whereas'];
/** §4.2 subordinating words: never a split (documented; the segmenter only splits on COORDINATORS). */
export const SUBORDINATORS: readonly string[] = ['because', 'since', 'unless', 'until', 'when', 'if', 'after', 'before', 'as', 'that', 'which', 'who'];

/** Words that can open an independent clause on their own. */
export const SUBJECT_PRONOUNS: readonly string[] = ['i', 'you', 'he', 'she', 'we', 'they', 'it', 'nobody', 'everyone', 'everybody', 'someone', 'somebody', 'people', 'this', 'there', 'im'];
/** A determiner that opens a subject noun phrase ("my family ..."). */
export const POSSESSIVES: readonly string[] = ['my', 'your', 'his', 'her', 'our', 'their', 'the'];
/** Finite auxiliaries, copulas and modals: a verb for the independent-clause test. */
export const AUXILIARIES: readonly string[] = [
  'am', 'is', 'are', 'was', 'were', 'do', 'does', 'did', 'have', 'has', 'had', 'can', 'could', 'will', 'would', 'should', 'may', 'might', 'must', 'cannot', 'shall',
];
/** Words that follow a pronoun without being its verb ("tea and i" is not a clause start when "i" ends it). */
export const NON_VERBS: readonly string[] = ['and', 'or', 'but', 'to', 'of', 'with', 'for', 'the', 'a', 'an', 'in', 'on', 'at', 'too', 'also', 'both', 'alone'];

/** Discourse openers stripped from the start of a claim ("well, i am shy"). */
export const OPENERS: readonly string[] = [
  'well', 'honestly', 'actually', 'oh', 'ok', 'okay', 'yeah', 'yes', 'yep', 'no', 'nah', 'um', 'uh', 'hmm', 'lol', 'haha', 'also', 'and', 'but', 'so', 'plus',
  'anyway', 'anyways', 'hi', 'hey', 'hello', 'wow', 'truthfully', 'frankly', 'basically', 'sometimes', 'lately', 'recently', 'today', 'currently',
];
/** Hedges before an embedded first-person clause ("i think i am a failure" → "i am a failure"); epistemics still reads them. */
export const HEDGE_PREFIXES: readonly string[] = [
  'i think that', 'i think', 'i guess', 'i suppose', 'i feel like', 'i feel that', 'i believe that', 'i suspect that', 'i suspect', 'i realize that', 'i realize',
  'i realise that', 'i realise', 'i have realized that', 'i have realized', 'i have noticed that', 'i have noticed', 'i noticed that', 'i noticed', 'i know that',
  'i am starting to think that', 'i am starting to think', 'i have been thinking that', 'i sometimes think', 'to be honest', 'if i am honest', 'deep down',
  'maybe', 'perhaps', 'probably', 'to be fair', 'in fact', 'of course', 'truth be told', 'for what it is worth', 'i have to say', 'i must say', 'i would say',
  'i admit', 'i will admit', 'i confess', 'if i am being honest', 'to me',
];

/** Adverbs dropped from the atom text: degree and time live in the epistemic frame (§4.7), not in the proposition. */
export const DROPPED_ADVERBS: readonly string[] = [
  'really', 'very', 'so', 'extremely', 'quite', 'pretty', 'truly', 'genuinely', 'totally', 'completely', 'incredibly', 'super', 'just', 'actually', 'honestly',
  'always', 'usually', 'generally', 'often', 'sometimes', 'still', 'also', 'definitely', 'certainly', 'kinda', 'sorta', 'somewhat', 'slightly', 'currently',
  'lately', 'recently', 'basically', 'literally', 'seriously', 'absolutely', 'constantly', 'mostly', 'even', 'too', 'today', 'nowadays', 'thanks', 'sorry', 'lol', 'haha',
];
/** Multi-word softeners and intensifiers dropped from the atom text. */
export const DROPPED_PHRASES: readonly string[] = ['kind of', 'sort of', 'a bit', 'a little bit', 'a little', 'at all', 'right now', 'at the moment', 'these days', 'anymore', 'any more', 'all the time', 'every day', 'every time'];

/** Clauses that are talk about talk, not self-beliefs (checked on the affirmative form). */
export const PHATIC_PREFIXES: readonly string[] = [
  'i hear', 'i see', 'i get it', 'i get that', 'i get what', 'i am sorry', 'i am glad', 'i am here', 'i think so', 'i hope so', 'i guess so', 'i know', 'i understand',
  'i agree', 'i mean', 'i bet', 'i wonder', 'i appreciate', 'i am happy to', 'i am happy for', 'i am sure', 'i am not sure', 'i would', 'i will', 'i am going to',
  'i am gonna', 'i wish', 'i hope', 'i want', 'i need', 'i should', 'i must', 'i have to', 'i am about to', 'i thank', 'i love that', 'i like that', 'i remember',
  'i forgot', 'i said', 'i told', 'i asked', 'i am just saying', 'i am curious', 'i am listening', 'i can imagine', 'i can tell', 'i can see', 'i can understand',
  'i could', 'i may', 'i might', 'i am kidding', 'i am joking', 'i do too', 'i am with you', 'i feel you', 'i feel the same', 'i am in the same',
  // Talk about the conversation itself, not about the speaker.
  'i like where this is going', 'i can share', 'my first thought',
];
/** Second-person words: a clause about "you" is not a self-belief. */
export const SECOND_PERSON: readonly string[] = ['you', 'your', 'yours', 'yourself', 'yourselves', 'u', 'ur'];

/** One-off past narration: a past-tense verb (or these markers) without a habitual cue is skipped. */
export const PAST_MARKERS: readonly string[] = ['yesterday', 'last night', 'last week', 'last month', 'last year', 'this morning', 'earlier today', 'ago', 'the other day'];
export const IRREGULAR_PAST: readonly string[] = [
  'was', 'were', 'went', 'did', 'had', 'saw', 'got', 'made', 'took', 'came', 'said', 'told', 'bought', 'ate', 'met', 'found', 'gave', 'left', 'felt', 'thought',
  'knew', 'ran', 'wrote', 'sat', 'stood', 'heard', 'brought', 'caught', 'taught', 'slept', 'spent', 'won', 'lost', 'sent', 'built', 'drove', 'flew',
  'swam', 'sang', 'began', 'broke', 'chose', 'forgot', 'became', 'kept', 'paid', 'woke', 'wore', 'drank', 'fell', 'fought', 'hid', 'held',
];
/** "-ed" words that are not past tenses. */
export const ED_NOT_PAST: readonly string[] = ['need', 'feed', 'bleed', 'breed', 'seed', 'exceed', 'succeed', 'proceed', 'speed', 'shed', 'wed', 'bed'];
/** "-ing" words that are adjectives after "i am" ("i am caring"), not a progressive action. */
export const ING_ADJECTIVES: readonly string[] = [
  'boring', 'interesting', 'annoying', 'amazing', 'caring', 'loving', 'outgoing', 'easygoing', 'exhausting', 'disappointing', 'charming', 'demanding',
  'understanding', 'forgiving', 'giving', 'willing', 'nothing', 'fascinating', 'intimidating', 'overwhelming', 'entertaining', 'exciting', 'frustrating', 'irritating',
  'outstanding', 'promising', 'unforgiving', 'hardworking', 'hard-working', 'easy-going', 'accommodating', 'calculating', 'cunning', 'daring', 'striving', 'thriving',
];

/** §4.3 FEELING_STATE: "i am <emotion>" is normalised to "i feel <emotion>". */
export const EMOTIONS: readonly string[] = [
  'sad', 'happy', 'anxious', 'tired', 'lonely', 'angry', 'stressed', 'excited', 'scared', 'afraid', 'overwhelmed', 'depressed', 'worried', 'nervous', 'exhausted',
  'bored', 'frustrated', 'calm', 'content', 'hopeful', 'hopeless', 'upset', 'down', 'miserable', 'empty', 'numb', 'ashamed', 'guilty', 'jealous', 'proud',
  'grateful', 'thankful', 'relieved', 'confused', 'lost', 'stuck', 'drained', 'burnt out', 'burned out', 'mad', 'furious', 'joyful', 'cheerful', 'peaceful',
  'restless', 'insecure', 'embarrassed', 'heartbroken', 'homesick', 'uneasy', 'tense', 'sleepy', 'hurt', 'disappointed', 'unhappy', 'fine', 'good', 'great',
  'okay', 'ok', 'alright', 'terrible', 'awful', 'better', 'worse', 'struggling',
];

/** §4.3 BELIEF_ABOUT_SELF: evaluative self-judgements (the harmful ones feed belief challenges). */
export const SELF_EVALUATIONS: readonly string[] = [
  'good enough', 'enough', 'a failure', 'failure', 'worthless', 'useless', 'stupid', 'dumb', 'smart', 'intelligent', 'clever', 'ugly', 'beautiful', 'pretty',
  'attractive', 'lovable', 'unlovable', 'a burden', 'a disappointment', 'a loser', 'broken', 'weak', 'strong', 'pathetic', 'a fraud', 'an impostor',
  'an imposter', 'inadequate', 'incompetent', 'a mess', 'unworthy', 'worthy', 'important', 'unimportant', 'a bad person', 'a good person', 'too much',
  'too sensitive', 'fat', 'a disappointment to my family', 'a waste of space', 'a joke', 'a screw up', 'a screwup', 'not enough', 'invisible', 'unwanted',
  'a good friend', 'a bad friend', 'lazy', 'selfish', 'a coward', 'damaged', 'defective', 'normal', 'weird', 'a freak', 'capable', 'talented',
];

/** §4.3 PREFERENCE verbs and their affirmative form: love/enjoy → like; hate/dislike/can't stand → like, deny. */
export const PREFERENCE_VERBS: Readonly<Record<string, { verb: string; deny: boolean; confidence: number }>> = {
  like: { verb: 'like', deny: false, confidence: 0.85 },
  love: { verb: 'like', deny: false, confidence: 0.85 },
  adore: { verb: 'like', deny: false, confidence: 0.8 },
  enjoy: { verb: 'like', deny: false, confidence: 0.85 },
  prefer: { verb: 'prefer', deny: false, confidence: 0.8 },
  hate: { verb: 'like', deny: true, confidence: 0.8 },
  dislike: { verb: 'like', deny: true, confidence: 0.8 },
  detest: { verb: 'like', deny: true, confidence: 0.75 },
  loathe: { verb: 'like', deny: true, confidence: 0.75 },
  'cannot stand': { verb: 'like', deny: true, confidence: 0.75 },
  'am a fan of': { verb: 'like', deny: false, confidence: 0.75 },
  'am into': { verb: 'like', deny: false, confidence: 0.7 },
};
/** §4.3 VALUE verbs ("x matters to me" is read as "i value x"). */
export const VALUE_VERBS: readonly string[] = ['value', 'believe in', 'care about', 'care deeply about', 'cherish', 'stand for', 'prioritize', 'prioritise'];
/** §4.3 CAPABILITY_LIMIT after "i am": the form, its affirmative text and whether it denies. */
export const CAPABILITY_PHRASES: Readonly<Record<string, { text: string; deny: boolean }>> = {
  'good at': { text: 'good at', deny: false },
  'great at': { text: 'good at', deny: false },
  'excellent at': { text: 'good at', deny: false },
  'bad at': { text: 'good at', deny: true },
  'terrible at': { text: 'good at', deny: true },
  'awful at': { text: 'good at', deny: true },
  'horrible at': { text: 'good at', deny: true },
  'hopeless at': { text: 'good at', deny: true },
  'able to': { text: 'can', deny: false },
  'unable to': { text: 'can', deny: true },
  'incapable of': { text: 'can', deny: true },
};
/** §4.3 META_BELIEF: beliefs about one's own thinking. */
export const META_PHRASES: readonly string[] = [
  'overthink', 'doubt myself', 'second-guess', 'second guess', 'question myself', 'judge myself', 'criticize myself', 'criticise myself', 'beat myself up',
  'ruminate', 'worry too much', 'trust myself', 'trust my own judgment', 'trust my judgment', 'trust my gut', 'am too hard on myself', 'am my own worst critic',
  'am my own worst enemy', 'overanalyze', 'overanalyse', 'catastrophize', 'catastrophise', 'talk myself out of', 'sabotage myself', 'self-sabotage', 'am in my head',
];
/** §4.3 RELATIONAL subjects after "my" (optionally with one of RELATION_MODIFIERS between). */
export const RELATIONS: readonly string[] = [
  'family', 'parents', 'parent', 'mom', 'mum', 'mother', 'dad', 'father', 'brother', 'brothers', 'sister', 'sisters', 'siblings', 'friends', 'friend', 'partner',
  'husband', 'wife', 'boyfriend', 'girlfriend', 'boss', 'coworkers', 'co-workers', 'colleagues', 'manager', 'kids', 'children', 'son', 'daughter', 'teacher',
  'teachers', 'roommate', 'roommates', 'team', 'classmates', 'ex', 'grandparents', 'grandma', 'grandmother', 'grandpa', 'grandfather', 'relatives', 'in-laws',
];
export const RELATION_MODIFIERS: readonly string[] = ['own', 'best', 'older', 'younger', 'little', 'big', 'whole', 'closest', 'old', 'new'];
/** §4.3 RELATIONAL subjects that stand alone ("nobody likes me"). */
export const COLLECTIVE_SUBJECTS: readonly string[] = ['nobody', 'no one', 'everyone', 'everybody', 'people', 'someone', 'somebody', 'no one ever', 'everyone else'];

/** Verbs after "i" that are not a self-description: mental and speech acts and modals (beyond PHATIC_PREFIXES). */
export const NON_BELIEF_VERBS: readonly string[] = ['think', 'guess', 'suppose', 'wonder', 'hope', 'wish', 'want', 'need', 'mean', 'would', 'will', 'should', 'shall', 'must', 'may', 'might', 'could', 'let', 'ask', 'say', 'tell', 'promise', 'swear', 'agree', 'disagree', 'bet', 'see', 'hear', 'know', 'understand', 'remember', 'forget'];

/** Quantifiers dropped after "have" so "i have two cats" and "i do not have any cats" share "i have cats" (see atomize.ts). */
export const PLURAL_QUANTIFIERS: readonly string[] = [
  'any', 'some', 'no', 'many', 'several', 'few', 'a few', 'a couple of', 'a lot of', 'lots of', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine',
  'ten', 'eleven', 'twelve', 'multiple', 'numerous',
];

/** §4.7 cue lists, exactly as the spec's YAML (the "..." of negation filled with the other negative auxiliaries). */
export const EPISTEMIC_CUES = {
  negation: ['not', "don't", 'never', 'cannot', "won't", "can't", "doesn't", "didn't", "isn't", "aren't", "wasn't", 'nor'],
  modality: {
    possible: ['might', 'maybe', 'perhaps', 'could be'],
    likely: ['i think', 'i suspect', 'probably'],
    unsure: ['unsure', 'not sure', 'uncertain'],
  },
  past: ['used to', 'formerly', 'previously', 'no longer'],
  transitional: ['lately', 'recently', 'becoming', 'starting to'],
  habitual_strong: ['always', 'never', 'every time', 'whenever'],
  habitual_soft: ['usually', 'generally', 'tend to', 'inclined to'],
  ongoing: ['still', 'continue to', 'remain'],
  state: ['right now', 'at the moment', 'currently', 'today'],
} as const;

/** §4.7 degree lexicon (Hearth): intensifiers raise the degree, softeners lower it. */
export const DEGREE_CUES = {
  up: ['very', 'really', 'extremely', 'so', 'incredibly', 'totally', 'completely', 'deeply', 'truly', 'super', 'absolutely'],
  down: ['a bit', 'somewhat', 'a little', 'kind of', 'sort of', 'slightly', 'kinda', 'sorta', 'barely'],
} as const;

/** §4.7 conditional clause openers: the condition is the rest of the clause. */
export const CONDITION_OPENERS: readonly string[] = ['if', 'when', 'whenever', 'unless', 'as long as'];

/** What embeddingTextOf drops: holder, copula, articles, hedges and intensifiers. */
export const EMBEDDING_STOPWORDS: readonly string[] = [
  'i', 'am', 'is', 'are', 'be', 'been', 'being', 'was', 'were', 'a', 'an', 'the', 'really', 'very', 'so', 'extremely', 'quite', 'pretty', 'truly', 'totally',
  'completely', 'incredibly', 'super', 'just', 'actually', 'honestly', 'maybe', 'perhaps', 'probably', 'always', 'usually', 'generally', 'often', 'sometimes',
  'still', 'definitely', 'somewhat', 'slightly', 'kinda', 'sorta', 'genuinely', 'person', 'someone', 'somebody', 'myself', 'do', 'does',
];
export const EMBEDDING_STOP_PHRASES: readonly string[] = ['i think', 'i guess', 'i feel like', 'kind of person', 'type of person', 'sort of person', 'kind of', 'sort of', 'a bit', 'a little', 'at all', 'someone who'];
/** Synonyms folded for the embedding text only (they mean the same belief). */
export const EMBEDDING_SYNONYMS: Readonly<Record<string, string>> = { love: 'like', adore: 'like', enjoy: 'like', loves: 'like', likes: 'like', enjoys: 'like' };
