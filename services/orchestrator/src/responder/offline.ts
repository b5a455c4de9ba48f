import { toSecondPerson } from '@hearth/text';
import { GATES } from '../config.js';
import { intimacyGate, lexiconGate, quirksGate, segmentSentences, sentenceGate } from '../gates/index.js';
import type { Tone } from '../turn/constraints.js';
import { topicPhrase, type OutlineItem, type PlannedMemory, type ResponsePlan } from '../turn/plan.js';

/**
 * The offline provider (ARCHITECTURE "LLM: … otherwise an offline provider"): a
 * template responder that renders a ResponsePlan in the persona's style. Pure:
 * the same plan and seed give the same text, and the seed is recorded.
 */
export interface RenderInput {
  plan: ResponsePlan;
  preferredName: string;
  /** The memories the plan chose (plan.memoryIds), for callbacks. */
  memories: readonly PlannedMemory[];
  /** The persona's hint tokens (§2.3), used as interjections when the gates allow them. */
  hintTokens: readonly string[];
  seed: number;
  /** A rewrite (§10): start with a different structure, and shorter. */
  rewrite?: boolean;
  /**
   * A belief challenge's prompt (issue 16; belief-challenge.md): the reply's
   * question, in place of the plan's follow-up, shortened to the sentence band
   * if need be. @default '' (none)
   */
  challenge?: string;
  /**
   * The question about an uncertainty (issue 17; libs/uncertainty questionFor),
   * in its phrasings, preferred first: the reply's last sentence, whole, after
   * the persona's acknowledgement, in place of the plan's follow-up and of any
   * challenge (one question a reply). The first phrasing that fits the
   * persona's sentence band is said. @default [] (none)
   */
  uncertainty?: readonly string[];
  /**
   * One of the persona's self-statements (issue 16; self-talk.ts), said in
   * place of the plan's `share` sentence. @default '' (none)
   */
  selfStatement?: string;
  /**
   * The user asked about the friend itself ("how are you?", "what about you?"):
   * a question the router sends to INFO_QA (turn-pipeline §6.5) is answered with
   * the self-statement, not with "I'd check a reliable source". @default false
   */
  aboutFriend?: boolean;
}

export interface RenderedReply {
  text: string;
  surfacedMemoryIds: string[];
}

// Phrase banks. Each sentence draws its phrasing independently (see `pick`), so a
// reply is one of thousands of combinations and its opener one of about a hundred:
// the §10.2/§10.3 gates rarely find a repeat, and a rewrite finds a fresh one.
// No bank phrase uses a quirk mark (! ~ ... parentheses), slang, an intimate term
// or a topic keyword: the persona's own quirks are added afterwards.
const ACK: Readonly<Record<Tone, readonly string[]>> = {
  supportive: [
    "I'm really glad you told me",
    'That sounds like a lot to carry',
    'Thank you for trusting me with this',
    'That is a heavy one',
    'I can hear how much this matters to you',
    'Oh, that sounds hard',
    "I'm sorry it has been like this",
    'That would weigh on anyone',
    "I'm listening, and I'm not going anywhere",
    "Okay, let's slow down for a second",
  ],
  calm: [
    'Got it',
    'I see what you mean',
    "Okay, I'm following you",
    'That makes sense to me',
    'Right, I hear you',
    'Okay',
    'Mm, okay',
    'Fair point',
    'I get that',
    'Understood',
    'Ah, okay',
    'Sure, that tracks',
  ],
  playful: [
    'Oh, now this is interesting',
    'Okay, I like where this is going',
    'Ha, I did not see that coming',
    'Well, look at you',
    'Oh nice',
    "Okay, now I'm curious",
    'Now that is a twist',
    "Oh, I'm into this",
    'Wait, really',
    'Look at that',
  ],
  blunt: ['Fair enough', "Okay, here's my honest take", "Right, let's be real", 'Noted', 'Makes sense', 'Okay, plainly put', 'Sure', 'Got it, no sugarcoating', 'Right'],
};

const SENTENCES: Readonly<Record<Exclude<OutlineItem['kind'], 'callback'>, readonly string[]>> = {
  welcome: ["Hi {name}, I'm so glad you're here", "Hey {name}, it's really nice to meet you", 'Hello {name}, welcome', "Hi {name}, it's good to finally say hello"],
  greet: [
    "Hi {name}, it's good to hear from you",
    'Hey {name}, nice to see you here',
    'Hello {name}, good to have you back',
    "Hey {name}, I'm glad you stopped by",
    'Hi {name}, nice of you to drop by',
    "Hello {name}, it's nice to hear from you",
    'Hey {name}, good to see you',
    "Hi {name}, I'm happy you're here",
  ],
  invite: [
    'Tell me a little about yourself whenever you like',
    "I'd love to hear what your days usually look like",
    "I'm curious what a normal week looks like for you",
    'Share whatever you feel like, big or small',
  ],
  validate: [
    "What you're feeling makes complete sense",
    "It's okay to feel this way, you don't have to fix it now",
    'Anyone would feel worn down by that',
    'That would be hard for anyone',
    'Of course this is getting to you',
    "You're allowed to feel all of this",
    "It makes sense that you're tired of it",
    "Feeling like this doesn't mean you're doing anything wrong",
  ],
  presence: [
    "I'm here, and we can take this one step at a time",
    "We don't have to rush anything, we can just sit with it",
    "I'm listening, take all the time you need",
    'You can tell me as much or as little as you want',
    "We can go slowly, there's no right way to do this",
    "I'm right here for this conversation",
  ],
  react: [
    'It sounds like {about} has been on your mind',
    'I like hearing about {about}',
    'Thanks for filling me in on {about}',
    "I've been curious how {about} is going for you",
    "There's a lot in {about} worth talking through",
    '{about} sounds like it matters to you',
    "I'm glad you brought up {about}",
    '{about} seems like a big part of things right now',
    'I can picture {about} from how you describe it',
    "That's a real update on {about}",
  ],
  share: [
    'Small moments like this say a lot about a day',
    "I'd probably feel the same way in your shoes",
    "It's the kind of thing that stays with me afterwards",
    "Some days are just like that, and that's okay",
    "I'm glad it's something you can talk about",
    'I think there is more to it than it looks',
    "Honestly, that's the part I'd want to hear more about",
    'It says something good about how you look at things',
    "I'd have reacted the same way, I think",
    'Those are the details that make a story',
  ],
  answer: [
    "That's a good question, and I want to give you a straight answer",
    'Here is what I can say from what I know',
    "Let me give you the short version of what I'd say",
    'My first thought is to keep it simple',
    'The honest answer is that it depends a little',
    "I'd start with the basics and go from there",
    "Good thing to ask, here's my take",
    'I can share what I understand about it',
  ],
  uncertain: [
    "I'm not fully sure without looking it up, so please double-check the details",
    'I might be missing something, so treat this as a starting point',
    "I'd check a reliable source before relying on it",
    "Take that with a grain of salt, I'm not an expert",
    'If it matters a lot, a quick search would confirm it',
    "That's my best guess rather than a sure thing",
  ],
  respond_only: ["I'll keep to just what you asked about {about}", "I'll stick to what you asked about {about}"],
};

// In place of the hedge when the question was about the friend itself: nothing to look up.
const ASKED_ABOUT_ME = ["It's nice of you to ask", 'Thanks for asking', 'I like that you asked', "That's kind of you to ask"];

// A sentence of its own before a long challenge question in the short band.
const BRIEF_ACKS = ['Okay', 'I hear you', 'Mm, okay', 'Got it'];

// The third sentence the long band needs after a greeting: an open door, not a reaction.
const OPEN_CHAT = [
  "I'm always happy to chat, whatever is on your mind",
  'We can talk about anything you like, big or small',
  "There's no agenda here, we can just catch up",
  "I've got time, so tell me whatever you feel like",
];

const QUESTIONS: Readonly<Record<string, readonly string[]>> = {
  support: [
    'What would help most right now?',
    'Do you want to talk it through, or just vent for a bit?',
    "What's the hardest part of it for you?",
    'How are you holding up right now?',
    'Is there anything that would make tonight a little easier?',
  ],
  welcome: ['What do you enjoy doing when you have free time?', "What's something that made you smile recently?", 'What should I know about you first?'],
  greet: ['How are you doing today?', "How's your day going so far?", "What's new with you?", 'What have you been up to lately?', 'How has your week been?'],
  open: [
    "What's been the best part of {about} so far?",
    'How are you feeling about {about} right now?',
    "What's next for you with {about}?",
    'What made you think of that today?',
    'How did that come about?',
    'What was that like for you?',
    'Was it what you expected?',
    'What happened after that?',
  ],
};

// Clauses that lengthen a sentence for the medium and long bands (§10.5) without
// changing what it says.
const EXTENSIONS = [
  ', and I mean that',
  ' when I really think about it',
  ', at least from where I am sitting',
  ', especially with everything else going on',
  ', so there is no rush with any of it',
  ' in a way that feels honest to me',
];

const QUESTION_EXTENSIONS = [', even just a little bit', ' if you feel like sharing', ' when you think about it now', ', looking at the bigger picture'];

const ASIDES = ['just saying', 'honestly', 'for the record', 'if that helps'];

const EMOJI: Readonly<Record<Tone, readonly string[]>> = {
  supportive: ['🤍', '🫶'],
  calm: ['🙂', '🌿'],
  playful: ['😄', '✨'],
  blunt: ['👍', '🙂'],
};

/** Words per sentence the renderer aims for, by msg_length_pref (inside the §10.5 bands). */
const WORD_TARGET: Readonly<Record<string, number>> = { short: 0, medium: 12, long: 17 };

/**
 * One element per (seed, salt), drawn independently for each salt: a 32-bit mix
 * (murmur3's finalizer) of the two, so two banks of the same size never move in
 * lockstep.
 */
function pick<T>(list: readonly T[], seed: number, salt: number): T {
  let h = (seed ^ Math.imul(salt + 1, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  h = (h ^ (h >>> 16)) >>> 0;
  return list[h % list.length]!;
}

function words(s: string): number {
  return s.split(/\s+/).filter(Boolean).length;
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Lowercases the first letter for use mid-sentence, except the pronoun I. */
function lowerFirst(s: string): string {
  return /^I\b/.test(s) ? s : s.charAt(0).toLowerCase() + s.slice(1);
}

/** Lengthens a sentence (no final punctuation) until it reaches `target` words. */
function lengthen(sentence: string, target: number, seed: number, clauses: readonly string[]): string {
  let out = sentence;
  for (let i = 0; words(out) < target && i < clauses.length; i++) out += clauses[(seed + i) % clauses.length];
  return out;
}

// A calendar date in words ("7 May 2023", "May 2023"), read as the UTC date it is.
const DAY_MONTH_YEAR = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'long', year: 'numeric' });
const MONTH_YEAR = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', month: 'long', year: 'numeric' });

/** "on 7 May 2023", "in May 2023", "in 2022", "the week of 1 May 2023": a stated date as said back. */
export function statedWhen(on: string, precision: string): string {
  const date = /^\d{4}-\d{2}-\d{2}$/.test(on) ? new Date(`${on}T00:00:00Z`) : null;
  if (!date || Number.isNaN(date.getTime())) return '';
  switch (precision) {
    case 'year':
      return `in ${on.slice(0, 4)}`;
    case 'month':
      return `in ${MONTH_YEAR.format(date)}`;
    case 'week':
      return `the week of ${DAY_MONTH_YEAR.format(date)}`;
    default:
      return `on ${DAY_MONTH_YEAR.format(date)}`;
  }
}

// The user's words said back stay one plain sentence inside §10.5's band (short:
// avg ≤ 14 words; medium ≤ 22) and show no punctuation quirk the persona does not allow (§10).
const TOLD_MAX_WORDS: Readonly<Record<string, number>> = { short: 12, medium: 16, long: 20 };
// A cut telling does not end on a word that leads somewhere ("… giving you", "… and the").
const DANGLING = new Set(['and', 'or', 'but', 'so', 'the', 'a', 'an', 'to', 'of', 'for', 'with', 'in', 'on', 'at', 'from', 'by', 'your', 'my', 'that', 'which', 'who', 'as', 'if', 'when', 'because', 'like', 'just', 'really', 'very', 'is', 'are', 'was', 'were', 'be', 'been', 'giving', 'getting', 'making', 'having']);

/** The user's words as one plain clause: inner sentence ends to commas, no quirk marks, cut at a clause or word limit. */
function toldPlainly(value: string, maxWords: number): string {
  const flat = value
    .replace(/[~()"“”]/g, ' ')
    .replace(/\s*(?:[.!?…]+|—|–|\s-\s)\s*/gu, ', ')
    .replace(/\s+/g, ' ')
    .replace(/(?:,\s*)+/g, ', ')
    .replace(/^[,\s]+|[,\s]+$/g, '');
  const words = flat.split(' ');
  if (words.length <= maxWords) return flat;
  // Prefer the end of a clause that already says something.
  const head = words.slice(0, maxWords);
  for (let i = head.length - 1; i >= 5; i--) if (head[i]!.endsWith(',')) return head.slice(0, i + 1).join(' ').replace(/,$/, '');
  const bare = (i: number) => (head.at(i) ?? '').replace(/,$/, '').toLowerCase();
  for (;;) {
    if (head.length > 5 && DANGLING.has(bare(-1))) head.pop();
    // "… giving you": an object pronoun after a dangling word goes with it.
    else if (head.length > 6 && /^(?:you|me|them|him|her|it|us)$/.test(bare(-1)) && DANGLING.has(bare(-2))) head.splice(-2);
    else break;
  }
  return head.join(' ').replace(/,$/, '');
}

/**
 * A memory said back. Preferences and facts by their key; an event or a
 * pattern the user told in their own words is said back in them, turned to
 * "you" (issue 15), with the date they stated when there is one.
 */
export function memoryPhrase(m: PlannedMemory, band = 'short'): string {
  const value = m.value.replace(/^(like|dislike)\|/, '').replace(/_/g, ' ');
  if (m.value.startsWith('dislike|')) return `I remember you're not a fan of ${value}`;
  if (m.type === 'PREFERENCE') return `I remember you like ${value}`;
  if ((m.type === 'RELATIONSHIP_EVENT' || m.type === 'EMOTIONAL_PATTERN') && value.split(/\s+/).length >= 3) {
    const told = toldPlainly(toSecondPerson(value), TOLD_MAX_WORDS[band] ?? TOLD_MAX_WORDS.short!);
    const when = statedWhen(m.occurredOn, m.occurredPrecision);
    const said = /^(?:you|your|you're|you've|you'd|you'll)\b/.test(told) ? told : `you mentioned ${told}`;
    return when ? `I remember ${said}, ${when}` : `I remember ${said}`;
  }
  const key = m.key.replace(/^[a-z]+:/, '').replace(/_/g, ' ');
  return `I remember your ${key} is ${value}`;
}

/**
 * Renders the plan: an ack (merged into the first sentence outside the short
 * band), one sentence per outline item, the follow-up question, then emoji and
 * the persona's punctuation quirks. Only the user-initiated topic is named.
 */
export function renderPlan(input: RenderInput): RenderedReply {
  return render(input, 0);
}

// A short self-statement lowers a reply's words per sentence: the other sentences
// may be lengthened by this many words more, in these steps, to keep §10.5's band.
const SELF_STRETCH = { step: 4, max: 8 };

function render(input: RenderInput, stretch: number): RenderedReply {
  const { plan, seed } = input;
  const c = plan.constraints;
  const band = c.msgLengthPref;
  const base = WORD_TARGET[band] ?? 12;
  const target = base ? base + stretch : 0;
  const about = plan.userInitiatedTopics.find((t) => !c.tabooTopics.includes(t) && !plan.respondOnlyTopics.includes(t));
  const fill = (s: string) => s.replace('{name}', input.preferredName || 'friend').replace('{about}', about ? topicPhrase(about) : 'what you shared');
  // Each body sentence with the memory it says back, if any: a callback dropped for room is not surfaced.
  const entries: { text: string; memoryId?: string; self?: boolean }[] = [];
  let items = plan.outline;
  if (input.rewrite) items = [...items].reverse();
  const selfSaid = (input.selfStatement ?? '').trim().replace(/[.!?]+$/, '');
  // Asked about itself, the friend's answer is what it says of itself, said once, without a hedge.
  const selfAnswers = Boolean(input.aboutFriend && selfSaid && items.some((item) => item.kind === 'answer'));
  let selfUsed = false;
  for (const [i, item] of items.entries()) {
    if (selfSaid && !selfUsed && (item.kind === 'share' || (item.kind === 'answer' && selfAnswers))) {
      entries.push({ text: selfSaid, self: true });
      selfUsed = true;
      continue;
    }
    if (selfAnswers && item.kind === 'uncertain') {
      entries.push({ text: pick(ASKED_ABOUT_ME, seed, i + 1) });
      continue;
    }
    if (item.kind === 'callback') {
      const m = input.memories.find((x) => x.memoryId === item.memoryId);
      const said = m ? sayable(memoryPhrase(m, band), c) : null;
      if (m && said) entries.push({ text: said, memoryId: m.memoryId });
      continue;
    }
    entries.push({ text: fill(pick(SENTENCES[item.kind], seed, i + 1)) });
  }
  // An ack is not glued onto a self-statement ("Got it, I like …"): it would no longer open with the statement.
  let ack = plan.ackStyle === 'brief' && !input.rewrite && !(band !== 'short' && entries[0]?.self) ? pick(ACK[plan.emotionalTone], seed, 0) : '';
  const hint = usableHint(input, seed);
  if (hint && ack) ack = `${hint}, ${lowerFirst(ack)}`;
  // What closes the reply instead of the follow-up: an uncertainty's question, kept
  // whole (its phrasing may hold a statement that only the question makes safe), or a challenge.
  const asked = (input.uncertainty ?? []).map((q) => q.trim()).filter(Boolean);
  const closings = asked.length > 0 ? asked.map((q) => [q]) : challengeClosings(input.challenge ?? '');
  const challenge = closings[0] ?? [];
  const question = challenge.length === 0 && plan.followupQuestion ? fill(pick(QUESTIONS[questionKind(plan)]!, seed, 5)) : '';
  // §10.5's sentence count: the ack (its own sentence only in the short band), the
  // question, and what fits of the body, callbacks first (they are what was asked for).
  const maxSentences = GATES.sentenceBand[band]?.sentences[1] ?? 3;
  const room = Math.max(1, maxSentences - (ack && band === 'short' ? 1 : 0) - (question || challenge.length > 0 ? 1 : 0) - (input.rewrite && band === 'short' ? 1 : 0));
  if (entries.length > room) {
    // Callbacks first, then what the persona says of itself (issue 16), then the rest.
    const kept = [...entries.filter((e) => e.memoryId), ...entries.filter((e) => e.self), ...entries.filter((e) => !e.memoryId && !e.self)].slice(0, room);
    entries.splice(0, entries.length, ...entries.filter((e) => kept.includes(e)).sort((a, b) => (band === 'short' ? Number(!!b.memoryId) - Number(!!a.memoryId) : 0)));
  }
  const body = entries.map((e) => e.text);
  const surfaced = entries.flatMap((e) => (e.memoryId ? [e.memoryId] : []));
  const sentences: string[] = [];
  if (ack && band === 'short') sentences.push(capitalize(ack));
  else if (ack && body.length > 0) body[0] = `${capitalize(ack)}, ${lowerFirst(body[0]!)}`;
  sentences.push(...body.map(capitalize));
  if (band === 'long' && sentences.length + (question ? 1 : 0) < 3) sentences.push(pick(items.some((o) => o.kind === 'greet') ? OPEN_CHAT : SENTENCES.share, seed, 9));
  const selfSentence = entries.find((e) => e.self) ? capitalize(selfSaid) : null;
  // A self-statement is said as the persona's own sentence, nothing added: the
  // belief graph reads it back as the same belief its template seeded.
  const lengthened = sentences.map((s, i) => (s !== selfSentence && target ? lengthen(s, target, seed + i, EXTENSIONS) : s) + '.');
  if (question) lengthened.push(target ? lengthen(question.slice(0, -1), target, seed + 3, QUESTION_EXTENSIONS) + '?' : question);
  const emoji = Array.from({ length: emojiCount(c.emojiMin, c.emojiMax, seed) }, (_, i) => pick(EMOJI[plan.emotionalTone], seed, i)).join('');
  const finish = (statements: string[], closing: readonly string[], lead: readonly string[] = []) => {
    // Quirks go on our own sentences only; a closing after them is held by a
    // stand-in question, so a "~" never takes the full stop the closing needs.
    const keep = selfSentence === null ? null : `${selfSentence}.`;
    const quirked = statements.length > 0 ? applyQuirks(closing.length > 0 ? [...statements, '?'] : statements, c.allowedQuirks, seed, band === 'short', keep).slice(0, statements.length) : [];
    const text = withEmoji([...lead, ...quirked, ...closing], emoji);
    return c.allowedQuirks.includes('lowercase') ? text.toLowerCase() : text;
  };
  if (challenge.length === 0) {
    const text = finish(lengthened, []);
    // A self-statement is said only inside the sentence band (the other sentences
    // longer if need be); else the plan's own share sentence.
    if (selfSentence && !sentenceGate(text, band).pass) return target && stretch < SELF_STRETCH.max ? render(input, stretch + SELF_STRETCH.step) : render({ ...input, selfStatement: '' }, 0);
    return { text, surfacedMemoryIds: surfaced };
  }
  // The challenge closes the reply in its own words (no quirk of ours in them),
  // shortened (challengeClosings) and the body trimmed from the end when the
  // sentence band (§10.5) asks for it; still outside it, the gates decide (a
  // rewrite, then the fallback without it).
  // In the short band (avg ≤ 14 words) a long question needs a short sentence beside it: a brief ack.
  const brief = band === 'short' ? [`${pick(BRIEF_ACKS, seed, 0)}.`] : [];
  const variants: { lead: string[]; statements: string[]; closing: readonly string[] }[] = [];
  for (const lead of brief.length > 0 ? [[], brief] : [[]]) {
    for (let kept = lengthened.length; kept >= 0; kept--) for (const closing of closings) variants.push({ lead, statements: lengthened.slice(0, kept), closing });
  }
  const fits = (v: (typeof variants)[number]) => {
    const text = finish(v.statements, v.closing, v.lead);
    // The user's words quoted back may carry what this persona does not say.
    return sentenceGate(text, band).pass && lexiconGate(text, c.lexiconBias).pass && quirksGate(text, c.allowedQuirks).pass && intimacyGate(text, c.intimacyStage).pass;
  };
  const chosen = variants.find(fits);
  // An uncertainty's question is said whole, short sentences and all: the others grow to keep the band's average.
  if (!chosen && asked.length > 0 && target && stretch < SELF_STRETCH.max) return render(input, stretch + SELF_STRETCH.step);
  if (!chosen && selfSentence) return target && stretch < SELF_STRETCH.max ? render(input, stretch + SELF_STRETCH.step) : render({ ...input, selfStatement: '' }, 0);
  if (!chosen) return { text: finish(lengthened, challenge), surfacedMemoryIds: surfaced };
  // A callback trimmed away is no longer said, nor surfaced.
  const stillSurfaced = entries.filter((e) => e.memoryId && chosen.statements.some((k) => k.includes(e.text.slice(1)))).map((e) => e.memoryId!);
  return { text: finish(chosen.statements, chosen.closing, chosen.lead), surfacedMemoryIds: surfaced.filter((id) => stillSurfaced.includes(id)) };
}

/**
 * A challenge prompt as the reply's closing sentences, longest first: as the
 * belief graph wrote it (already a question in its style), a statement after
 * its last question (the user's words quoted back) moved before the questions
 * so that the reply ends on the question; then without that statement; then
 * the last question alone. Sentences are kept whole; a prompt with no question
 * has its last sentence made one.
 */
export function challengeClosings(prompt: string): string[][] {
  const sentences = prompt
    .trim()
    .split(/(?<=[.!?])\s+/u)
    .map((s) => s.trim())
    .filter((s) => segmentSentences(s).length > 0);
  if (sentences.length === 0) return [];
  const lastQuestion = sentences.findLastIndex((s) => s.endsWith('?'));
  if (lastQuestion < 0) return [[...sentences.slice(0, -1), `${sentences.at(-1)!.replace(/[.!…]+$/u, '')}?`]];
  const asked = sentences.slice(0, lastQuestion + 1);
  const after = sentences.slice(lastQuestion + 1);
  const closings = [[...after, ...asked], asked, asked.slice(-1)];
  return closings.filter((c, i) => i === 0 || c.length < closings[i - 1]!.length);
}

/** The closing sentences a challenge is rendered with when nothing has to give (challengeClosings' first). */
export function challengeSentences(prompt: string): string[] {
  return challengeClosings(prompt)[0] ?? [];
}

const PLAIN_WORDS: readonly [RegExp, string][] = [
  [/\bgonna\b/g, 'going to'],
  [/\bwanna\b/g, 'want to'],
  [/\bgotta\b/g, 'have to'],
  [/\bkinda\b/g, 'kind of'],
  [/\bsorta\b/g, 'sort of'],
  [/\b'?cause\b/g, 'because'],
  [/\bcuz\b/g, 'because'],
];

/**
 * A memory said back within the persona's lexicon and intimacy (§10): the
 * user's casual words in plain ones when the persona is cleaner than they are;
 * null when it still would not pass (then the memory is not said, nor surfaced).
 */
function sayable(phrase: string, c: ResponsePlan['constraints']): string | null {
  let said = phrase;
  if (!lexiconGate(said, c.lexiconBias).pass) for (const [re, to] of PLAIN_WORDS) said = said.replace(re, to);
  return lexiconGate(said, c.lexiconBias).pass && intimacyGate(said, c.intimacyStage).pass && quirksGate(said, c.allowedQuirks).pass ? said : null;
}

function questionKind(plan: ResponsePlan): string {
  if (plan.followupQuestion.startsWith('ask gently')) return 'support';
  if (plan.followupQuestion.startsWith('ask what they enjoy')) return 'welcome';
  if (plan.followupQuestion.startsWith('ask how they are')) return 'greet';
  return 'open';
}

/** A hint token the persona's own gates allow at this stage (a warm hint waits for a later stage). */
function usableHint(input: RenderInput, seed: number): string {
  if (input.hintTokens.length === 0 || seed % 3 === 0) return '';
  const c = input.plan.constraints;
  const token = pick(input.hintTokens, seed, 11);
  const probe = `${capitalize(token)}, okay.`;
  const fits =
    intimacyGate(probe, c.intimacyStage).pass && lexiconGate(probe, c.lexiconBias).pass && quirksGate(probe, c.allowedQuirks).pass;
  return fits ? capitalize(token) : '';
}

/**
 * Joins the sentences with the emoji after the first one, not alone at the end:
 * read literally, §10.5 would count a trailing "🙂" as a sentence of its own, and
 * here it is at most one more word of the next sentence under any reading.
 */
function withEmoji(sentences: readonly string[], emoji: string): string {
  if (!emoji) return sentences.join(' ');
  if (sentences.length < 2) return `${sentences.join(' ')} ${emoji}`;
  return [`${sentences[0]} ${emoji}`, ...sentences.slice(1)].join(' ');
}

/** The emoji count, inside the band: light sometimes adds one, frequent one or two. */
function emojiCount(min: number, max: number, seed: number): number {
  if (max === 0) return 0;
  const upper = Math.min(max, 2);
  return min + ((seed >>> 4) % (upper - min + 1));
}

/** The persona's punctuation quirks (§2.3), each used at most once per reply. */
function applyQuirks(sentences: string[], quirks: readonly string[], seed: number, short: boolean, keep: string | null = null): string[] {
  const out = [...sentences];
  // The persona's own self-statement takes no "~" and no aside inside it: it stays the words it holds.
  const kept = keep === null ? -1 : sentences.indexOf(keep);
  const firstStatement = out.findIndex((s) => s.endsWith('.'));
  if (firstStatement >= 0) {
    const s = out[firstStatement]!;
    if (quirks.includes('!!')) out[firstStatement] = s.slice(0, -1) + '!!';
    else if (quirks.includes('!')) out[firstStatement] = s.slice(0, -1) + '!';
    else if (quirks.includes('...')) out[firstStatement] = s.slice(0, -1) + '...';
  }
  if (quirks.includes('~')) {
    // "~" is no sentence delimiter (§10.5): it takes a comma's place, or ends the reply.
    const withComma = out.findIndex((s, i) => i !== kept && s.includes(', '));
    if (withComma >= 0) out[withComma] = out[withComma]!.replace(', ', '~ ');
    else if (out.at(-1)!.endsWith('.') && kept !== out.length - 1) out[out.length - 1] = out.at(-1)!.slice(0, -1) + '~';
  }
  if (quirks.includes('()')) {
    // An aside adds three words: in the short band (§10.5 avg ≤ 14) only on a short sentence.
    const i = out.findLastIndex((s, j) => j !== kept && !s.endsWith('?') && (!short || words(s) <= 10));
    if (i >= 0) {
      const s = out[i]!;
      const end = s.endsWith('...') ? 3 : 1;
      out[i] = `${s.slice(0, -end)} (${pick(ASIDES, seed, 13)})${s.slice(-end)}`;
    }
  }
  return out;
}

/**
 * §10 "fall back to a safe, shorter response": neutral, inside the persona's
 * sentence and emoji bands, surfacing no memory and naming no topic.
 */
export function fallbackReply(plan: ResponsePlan): RenderedReply {
  const c = plan.constraints;
  const lines: Record<string, string[]> = {
    short: ["I'm here with you.", 'Tell me more when you want to.'],
    medium: [
      "I'm here with you, and I'm listening to every part of what you said.",
      'Tell me more about it whenever you feel ready to share it with me.',
    ],
    long: [
      "I'm here with you, and I'm really listening to every part of what you have told me today.",
      'There is no pressure to say anything more than you want to, and we can go at your pace.',
      'Tell me more about it whenever you feel ready, and we can take it one small piece at a time.',
    ],
  };
  let text = withEmoji(lines[c.msgLengthPref] ?? lines.medium!, c.emojiMin > 0 ? '🙂' : '');
  if (c.allowedQuirks.includes('lowercase')) text = text.toLowerCase();
  return { text, surfacedMemoryIds: [] };
}
