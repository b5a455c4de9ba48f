/**
 * The rule tables of the broad extractor and of stated times, as data (issue 15):
 * which words place an event in a §12.3.1 C domain, which sentences carry nothing
 * about the user, what marks a plan, a habit or a feeling. Words are compared in
 * lower case; stems match by prefix where a table says so.
 */
import type { EventDomain } from '../config.js';

/** Stated times (stated-time.ts). */
export const STATED_TIME = {
  /** chrono matches that are durations or "now", not a time something happened. */
  reject: /^(?:for|over|during|within|in the (?:last|past|next)|the (?:last|past|next) (?:few|couple)|throughout|all)\b|^(?:now|right now|the moment|these days|nowadays|lately|recently)$|^(?:\d+|a|an|one|two|three|few|several)\s+(?:days?|weeks?|months?|years?)$/,
  /** Words that make a match without a day, month or year a date anyway. */
  relativeWords: /\b(?:yesterday|today|tonight|tomorrow|ago|last|next|this|weekend)\b/,
  weekWords: /\bweeks?\b|\bweekend\b/,
  dayWords: /\b(?:yesterday|today|tonight|tomorrow|days?|morning|afternoon|evening|night|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b/,
  monthWords: /\b(?:months?|january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\b/,
} as const;

/**
 * §12.3.1 C domains, by the words a sentence uses (lemmas or stems as prefixes
 * where marked with a trailing `*`). The domain with the most hits wins; ties go
 * to the earlier domain in this list.
 */
export const DOMAIN_WORDS: readonly [EventDomain, readonly string[]][] = [
  [
    'health',
    ['doctor', 'hospital', 'sick', 'ill', 'illness', 'injur*', 'hurt', 'surgery', 'therap*', 'therapist', 'medic*', 'pain', 'diagnos*', 'clinic', 'symptom*', 'recover*', 'health*', 'allerg*', 'pregnan*', 'fever', 'flu', 'covid', 'disease', 'cancer', 'diet', 'workout', 'gym', 'fitness', 'anxiety', 'depress*', 'mental', 'broke my', 'checkup', 'dentist', 'vaccin*', 'nurse'],
  ],
  [
    'family',
    ['mom', 'mum', 'mother', 'dad', 'father', 'parent*', 'sister', 'brother', 'sibling*', 'grandma', 'grandmother', 'grandpa', 'grandfather', 'grandparent*', 'son', 'daughter', 'kid', 'kids', 'child', 'children', 'baby', 'husband', 'wife', 'family', 'families', 'aunt', 'uncle', 'cousin*', 'niece', 'nephew', 'adopt*', 'pet', 'pets', 'dog', 'dogs', 'puppy', 'cat', 'cats', 'kitten', 'home', 'house', 'household'],
  ],
  [
    'relationship',
    ['friend', 'friends', 'friendship', 'boyfriend', 'girlfriend', 'partner', 'date', 'dating', 'wedding', 'married', 'marry', 'marriage', 'engag*', 'breakup', 'broke up', 'divorce*', 'crush', 'love', 'relationship', 'mentor*', 'community', 'group', 'neighbor*', 'neighbour*', 'club', 'support group', 'lgbtq*', 'pride', 'volunteer*', 'church', 'party', 'parties'],
  ],
  [
    'school',
    ['school', 'class', 'classes', 'course', 'courses', 'exam', 'exams', 'test', 'tests', 'college', 'university', 'uni', 'degree', 'study', 'studies', 'studying', 'student*', 'teacher', 'professor', 'homework', 'assignment*', 'lecture*', 'semester', 'graduat*', 'educat*', 'thesis', 'scholarship', 'campus', 'workshop*', 'learn*', 'lesson*'],
  ],
  [
    'work',
    ['job', 'jobs', 'work', 'working', 'career', 'boss', 'office', 'coworker*', 'colleague*', 'promot*', 'interview*', 'hire*', 'hired', 'fired', 'quit', 'salary', 'business', 'company', 'client*', 'project*', 'shift', 'shop', 'store', 'startup', 'counsel*', 'manager', 'team', 'meeting*', 'contract*', 'employ*', 'intern*', 'profession*', 'customer*'],
  ],
  [
    'travel',
    ['trip', 'trips', 'travel*', 'vacation', 'holiday', 'flight', 'fly', 'flew', 'airport', 'abroad', 'beach', 'camping', 'camp', 'hike', 'hiking', 'hiked', 'road trip', 'hotel', 'visit*', 'tour*', 'cruise', 'island', 'mountain*', 'lake', 'national park', 'festival', 'concert', 'roadtrip', 'overseas', 'country'],
  ],
];

/**
 * Sentences that carry nothing about the user however they are phrased: thanks,
 * agreement, praise of the other speaker, small talk. Matched against the whole
 * sentence in lower case with its punctuation removed.
 */
export const PHATIC = [
  /^(?:thanks?|thank you|ty|cheers|wow|aw+|oh|yeah|yes|yep|no|nope|ok(?:ay)?|sure|haha|lol|hey|hi|hello|bye|cool|nice|great|awesome|totally|absolutely|definitely|exactly|true|same|right|indeed|agreed|congrats|congratulations)\b[\w\s]{0,24}$/,
  /^i (?:totally |really |completely |so )?(?:agree|know|see|understand|get it|hear you|feel you|bet|guess so|think so|hope so|believe so|suppose so|am sure|am glad|am happy for you|am so happy for you|am proud of you|am so proud of you|love that|love it|like that|can imagine|can relate|appreciate it|appreciate that|appreciate you)\b[\w\s]{0,40}$/,
  /^i (?:am|'m) (?:so |really |very )?(?:glad|happy|excited|thrilled|sorry) (?:to hear|for you|that you|you)\b/,
  /^i (?:hope|wish|bet) (?:you|your|it|that|things?)\b/,
  /^i (?:can not|cannot|can't) wait to (?:see|hear)\b/,
  /^(?:you|your|you're|you've|you'll|you'd)\b/,
  /^let(?:'s| us)\b/,
  /^(?:that|this|it|these|those) (?:is|was|sounds|seems|looks|must|'s) /,
  /^(?:what|how|why|where|when|who|which|do|does|did|are|is|was|were|have|has|can|could|would|will|should)\b.*$/,
];

/** Words that make a clause first person (the user's own life). */
export const FIRST_PERSON = new Set(['i', 'me', 'my', 'mine', 'myself', 'we', 'us', 'our', 'ours', 'ourselves', "i'm", "i've", "i'd", "i'll", "we're", "we've", "we'd", "we'll"]);
export const SECOND_PERSON = new Set(['you', 'your', 'yours', 'yourself', "you're", "you've", "you'd", "you'll"]);

/** A plan: what the user is going to do. */
export const PLAN =
  /\b(?:going to|gonna|plan(?:ning|s)? to|will|'ll|intend(?:ing)? to|hop(?:e|ing) to|want(?:ing)? to|would love to|'d love to|thinking (?:about|of)|looking (?:into|forward to)|about to|aim(?:ing)? to|decided to|signed up|sign up|research(?:ing)?|consider(?:ing)?|next (?:week|month|year|weekend)|tomorrow|soon)\b/;

/** A habit: what the user does again and again. */
export const HABIT = /\b(?:always|usually|often|every (?:day|morning|night|evening|week|weekend|month|year|time)|each (?:day|week|morning)|on weekends|regularly|daily|weekly|whenever|tend to|used to|for years|since (?:i was|childhood))\b/;

/** Feelings a sentence can be about (for EMOTIONAL_PATTERN and for what an event meant). */
export const FEELING_WORDS = [
  'happy', 'sad', 'angry', 'upset', 'stressed', 'stress', 'anxious', 'nervous', 'worried', 'scared', 'afraid', 'excited', 'thrilled', 'grateful', 'thankful',
  'proud', 'lonely', 'alone', 'depressed', 'down', 'tired', 'exhausted', 'overwhelmed', 'frustrated', 'hopeful', 'calm', 'peaceful', 'relaxed', 'content',
  'joy', 'joyful', 'inspired', 'motivated', 'empowered', 'loved', 'accepted', 'free', 'hurt', 'heartbroken', 'bored', 'confident', 'insecure', 'ashamed', 'guilty',
];

/** What helps: a coping activity ("painting helps me relax", "running is my therapy"). */
export const COPING = /\b(?:helps? me (?:relax|unwind|de-?stress|calm down|cope|clear my (?:head|mind)|recharge|feel better|express|escape|find peace|process)|is my (?:therapy|escape|outlet|happy place|safe place|way to (?:relax|unwind|cope))|keeps me (?:sane|grounded|calm|going)|gives me (?:peace|calm|joy|strength)|(?:relax|unwind|de-?stress|cope|recharge) by|to (?:relax|unwind|de-?stress|cope|recharge)|calms me|brings me (?:peace|joy))\b/;

/** Stress triggers ("work has been stressing me out"). */
export const STRESS = /\b(?:stress(?:es|ed|ing|ful)?|overwhelm(?:s|ed|ing)?|burn(?:ed|t) out|burnout|pressure|anxious about|worried about|freaking out)\b/;

/** A long-run mood the user states about themself ("I've been feeling down lately", "I'm a cheerful person"). */
export const MOOD = /\b(?:i(?:'ve| have)? been (?:feeling |so |really |pretty )*(?:down|low|great|good|happy|sad|depressed|anxious|lonely|off|stressed|better|amazing|awesome|blue)(?: lately| recently| these days)?|i am (?:usually|generally|mostly|always|naturally) (?:a |an )?(?:happy|cheerful|positive|optimistic|anxious|sad|calm|moody|grumpy|upbeat)|i(?:'m| am) (?:an? )?(?:introvert|extrovert|introverted|extroverted|people person)\b)/;

/** Words that never name what an event was about (left out of its slug). */
export const SLUG_STOP = new Set([
  'i', 'me', 'my', 'mine', 'myself', 'we', 'us', 'our', 'you', 'your', 'he', 'she', 'it', 'they', 'them', 'their', 'his', 'her', 'its', 'this', 'that', 'these', 'those',
  'a', 'an', 'the', 'and', 'or', 'but', 'so', 'to', 'of', 'in', 'on', 'at', 'for', 'from', 'with', 'about', 'by', 'as', 'into', 'onto', 'up', 'out', 'over', 'off', 'just',
  'be', 'is', 'am', 'are', 'was', 'were', 'been', 'being', 'have', 'has', 'had', 'do', 'does', 'did', 'get', 'got', 'gotten', 'really', 'very', 'so', 'too', 'also',
  'still', 'even', 'actually', 'totally', 'pretty', 'quite', 'some', 'any', 'all', 'lot', 'lots', 'much', 'many', 'more', 'most', 'thing', 'things', 'stuff', 'something',
  'everything', 'anything', 'yesterday', 'today', 'tonight', 'tomorrow', 'last', 'next', 'week', 'weekend', 'month', 'year', 'ago', 'now', 'then', 'there', 'here',
  'when', 'while', 'what', 'which', 'who', 'how', 'why', 'where', 'if', 'because', 'since', 'not', 'no', 'yes', 'yeah', 'oh', 'wow', 'hey', 'hi', 'gonna', 'wanna',
  'can', 'could', 'would', 'should', 'will', 'shall', 'may', 'might', 'must', 'ever', 'never', 'always', 'usually', 'often', 'one', 'new', 'good', 'great', 'awesome',
  'amazing', 'cool', 'nice', 'fun', 'such', 'like', 'kind', 'sort', 'way', 'time', 'times', 'day', 'days', 'feel', 'felt', 'think', 'thought', 'know', 'knew', 'want',
  'wanted', 'tell', 'told', 'let', 'make', 'made', 'go', 'went', 'going', 'say', 'said', 'see', 'saw', 'recently', 'finally', 'again', 'back', 'around', 'through',
]);
