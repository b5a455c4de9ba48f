import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { RETENTION, SENSITIVE_TOPICS, UNCERTAINTY, type Stage } from '../config.js';
import {
  intimacyGate,
  isSensitive,
  lexiconGate,
  openerNorm,
  quirksGate,
  replyTopics,
  RETENTION_FACT_ALLOWLIST,
  segmentSentences,
  type GateVerdict,
  type SurfacedMemory,
} from '../gates/index.js';
import { seedFromId } from '../personas/assign.js';

/**
 * The §14.5 retention content ladder: which proactive message to send, as pure
 * code over what the orchestrator knows (no I/O, no clock, no Math.random). The
 * same input gives the same message; the seed it drew from is returned.
 */

/** The §14.5 ladder step a message came from, as TurnCompleted.retention_step records it. */
export type RetentionStep = 'follow_up' | 'context_nudge' | 'check_in';

/** §14.5 step 3: the stage-specific canned intent of the generic check-in (a STRANGER, never planned, gets the mildest). */
export const CHECK_IN_INTENT: Readonly<Record<Stage, string>> = {
  STRANGER: 'low-pressure hello',
  ACQUAINTANCE: 'low-pressure hello',
  FRIEND: 'quick check-in',
  CLOSE_FRIEND: 'warm check-in',
};

// Phrase banks. A rendering is `<lead>, <body>`: the lead is a plain greeting or
// one of the persona's hint tokens (§14.5 "rendered through PersonaTemplate
// hints"), so a re-render changes the opener. No body uses a topic keyword, an
// emoji, a quirk mark (! ~ ... parentheses), slang or an intimate term; each
// has at most 2 sentences and 1 question (the unit tests hold every one to it).

export const GREETINGS: Readonly<Record<Stage, readonly string[]>> = {
  STRANGER: ['Hi', 'Hey', 'Hello', 'Hi there'],
  ACQUAINTANCE: ['Hi', 'Hey', 'Hello', 'Hi there'],
  FRIEND: ['Hey', 'Hi', 'Hey there'],
  CLOSE_FRIEND: ['Hey', 'Hi', 'Hey you'],
};

/** §14.5 step 3, by intent. */
export const CHECK_IN_BODIES: Readonly<Record<string, readonly string[]>> = {
  'low-pressure hello': [
    'just dropping by to say hello.',
    'hope your day has been treating you okay.',
    'just a small hello from me, no need to reply.',
    'hope things are going alright on your end.',
    "saying a quick hello. How's your day going?",
    'no pressure to reply, I just wanted to say hi.',
  ],
  'quick check-in': [
    "quick check-in from me. How's your day going?",
    'just checking in. How have things been?',
    "it's been a little while. How are you doing?",
    "popping in to see how you're doing.",
    "hope your day is going well. What's new with you?",
    'checking in real quick. Anything good happen lately?',
  ],
  'warm check-in': [
    "I was just wondering how you're doing.",
    'it has been a bit and I wanted to check in on you. How are you?',
    'hope today is being kind to you. How are things?',
    "I've been wondering how your week is going.",
    "I'd really like to hear how you've been lately.",
    "just checking in on you. How's everything going?",
  ],
};

/** §14.5 step 1: one sentence that asks the open question again, softly; `{q}` is that question. */
export const FOLLOW_UP_FORMS: readonly string[] = [
  "no rush, but I'm still curious: {q}",
  "whenever you have a moment, I'm still wondering: {q}",
  'no pressure at all, but I keep wondering: {q}',
  'just circling back, no pressure: {q}',
  'only if you feel like it: {q}',
  'still curious, whenever suits you: {q}',
];

/** §14.5 step 2, by allowlisted FACT key: `{v}` the value, `{a}` its article, `{part}` the user's part of the day. */
export const NUDGE_FORMS: Readonly<Record<string, readonly string[]>> = {
  'fact:occupation': ['how has work as {a} {v} been lately?', 'hope work as {a} {v} has been treating you well.', 'I was wondering how things are going as {a} {v}.'],
  'fact:school': ['how are things at {v} lately?', 'hope things at {v} have been going well.', 'I was wondering how {v} has been treating you.'],
  'fact:major': ["how's {v} been going lately?", 'hope your {v} classes have been going okay.', 'I was wondering how things are going with {v}.'],
  'fact:timezone': ['hope your {part} is going well.', "how's your {part} been so far?", "hope you're having a nice {part}."],
};

/**
 * §14.5 "the shortest neutral opener": whole messages with no question, no
 * hint, no fact. Kept longer than the 10 remembered openers, so the fallback
 * itself need not repeat.
 */
export const NEUTRAL_OPENERS: readonly string[] = [
  'Hey there.',
  'Hello from me.',
  'Just a quick hello.',
  'A quick hello from me.',
  'Hi, just saying hello.',
  'Hey, sending a quick hello.',
  'Hey, a small hello from me.',
  'Hi there, hope all is well.',
  'Hey, hope today is going okay.',
  'Hello, hope things are calm today.',
  'Hi, hope your day is going alright.',
  'Hi, hope the day is treating you well.',
];

/** The last assistant message of the conversation (the `dialogue` row with the highest sequence). */
export interface LastAssistantMessage {
  /** chat | retention */
  source: string;
  text: string;
  createdAt: Date;
}

/** A memory the nudge may use: what §14.6 classifies it by, and when it was last confirmed. */
export interface RetentionMemory extends SurfacedMemory {
  confidence: number;
  lastConfirmedAt: Date | null;
  /**
   * reliable | uncertain | contradicted | superseded (issue 17): a nudge names
   * only a reliable memory (uncertainty-engine.md Context 3). @default reliable
   */
  reliability?: string;
}

/** Context 3 before a nudge acts on a memory: only a reliable one (''/absent reads as reliable). */
export function reliableForNudge(m: Pick<RetentionMemory, 'reliability'>): boolean {
  return !m.reliability || m.reliability === UNCERTAINTY.assertable;
}

/**
 * A memory's reliability for a nudge, from what uncertainty answered for it
 * (undefined when it was not asked, did not answer or did not list it) and the
 * state memory projected onto its snippet: the first that is not reliable, so
 * a memory either of them doubts is never named.
 */
export function nudgeReliability(answered: string | undefined, snippet: string): string {
  return [answered, snippet].find((r) => !reliableForNudge({ reliability: r })) ?? UNCERTAINTY.assertable;
}

/** What of the persona shapes the rendering (PersonaTemplate §2.3, StableStyleParams §2.4). */
export interface RetentionPersona {
  hintTokens: readonly string[];
  tabooSoftBounds: readonly string[];
  lexiconBias: string;
  punctuationQuirks: readonly string[];
}

export interface RetentionCandidate {
  text: string;
  surfacedMemoryIds: string[];
}

export interface RetentionInput {
  retentionId: string;
  /** PersonaAssigned.persona_seed (§3.3): with the retention id, the seed of every draw. */
  personaSeed: number;
  /** The evaluated hour the message belongs to. */
  slot: Date;
  stage: Stage;
  /** The user's local wall time of the slot ("HH:MM"), '' when unknown. */
  localTime: string;
  persona: RetentionPersona;
  /** UserControls.suppressed_topics. */
  suppressedTopics: readonly string[];
  lastAssistant: LastAssistantMessage | null;
  /** ACTIVE memories as the memory service returned them (any type; the ladder filters). */
  memories: readonly RetentionMemory[];
  /** opener_norm of the user's earlier retention messages, newest first. */
  recentOpeners: readonly string[];
  /** The §10 gates a candidate of `step` must pass besides the ladder's own rules; all must pass. */
  check?: (c: RetentionCandidate, step: RetentionStep) => readonly GateVerdict[];
}

export interface RetentionRendering extends RetentionCandidate {
  step: RetentionStep;
  /** What the message does, for the plan's outline. */
  intent: string;
  /** 1 + re-renders; 0 when the shortest neutral opener was sent (§14.5 anti-repetition). */
  renders: number;
  opener: string;
  /** Why each earlier ladder step did not apply, in order. */
  trace: string[];
  seed: number;
}

const SENSITIVE: ReadonlySet<string> = new Set(SENSITIVE_TOPICS);

/** Why the orchestrator does not send a planned message (RetentionDeclined.reason). */
export type DeclineReason = 'proactive_disabled' | 'muted' | 'not_active' | 'user_interacted';

/** The user's controls and state as the orchestrator's profiles projection holds them. */
export interface RetentionControls {
  userState: string;
  proactiveMessagesEnabled: boolean;
  muteUntil: Date | null;
}

/**
 * §14.4 "stop everything pending" and §14.0: a plan made before the user turned
 * proactive messages off, muted them, or wrote again is not sent. `controls` is
 * undefined for a user the orchestrator does not know (not active).
 */
export function declineReason(input: { controls: RetentionControls | undefined; now: Date; chattedSinceSlot: boolean }): DeclineReason | null {
  const c = input.controls;
  if (c && !c.proactiveMessagesEnabled) return 'proactive_disabled';
  if (c?.muteUntil && c.muteUntil.getTime() > input.now.getTime()) return 'muted';
  if (c?.userState !== 'ACTIVE') return 'not_active';
  // The hour the plan was made for is no longer one of inactivity (§14.0).
  if (input.chattedSinceSlot) return 'user_interacted';
  return null;
}

/** The draw seed of one retention message: the persona's seed mixed with the message's id. */
export function retentionSeed(personaSeed: number, retentionId: string): number {
  return (personaSeed ^ seedFromId(retentionId)) >>> 0;
}

/** Topics a retention message must not touch: §14.6 sensitive, suppressed, and the persona's taboo_soft_bounds (nothing is user-initiated in a proactive message). */
function blockedTopics(input: Pick<RetentionInput, 'suppressedTopics' | 'persona'>): Set<string> {
  return new Set([...SENSITIVE, ...input.suppressedTopics, ...input.persona.tabooSoftBounds]);
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Lowercases the first letter for use after a lead, except the pronoun I and an acronym ("TV"). */
function lowerFirst(s: string): string {
  return /^I\b/.test(s) || /^\p{Lu}{2}/u.test(s) ? s : s.charAt(0).toLowerCase() + s.slice(1);
}

function questionMarks(text: string): number {
  return text.match(/[?？]/g)?.length ?? 0;
}

// Whitespace and emoji a reply may end with after its last mark.
const TRAILING_DECORATION = /(?:\s|\p{Extended_Pictographic}|\p{Emoji_Modifier}|\u{FE0F}|\u{200D})+$/u;

/**
 * §14.5 step 1: the question a message ends with, when it asks exactly one
 * ("?" once in the whole text, as its last mark; trailing emoji aside): the
 * message's last sentence, with its "?". Null otherwise.
 */
export function openQuestion(text: string): string | null {
  const t = text.replace(TRAILING_DECORATION, '');
  if (questionMarks(t) !== 1 || !/[?？]$/.test(t)) return null;
  const last = segmentSentences(t).at(-1);
  return last ? `${last}?` : null;
}

type Follow = { question: string } | { skip: string };

/** §14.5 step 1 "only if safe": the open question of the last assistant message, or why there is none. */
export function followUpOf(input: Pick<RetentionInput, 'lastAssistant' | 'slot' | 'suppressedTopics' | 'persona'>): Follow {
  const last = input.lastAssistant;
  if (!last) return { skip: 'no earlier assistant message' };
  // A proactive message is never followed up by another.
  if (last.source !== 'chat') return { skip: `the last assistant message is a ${last.source} message` };
  const question = openQuestion(last.text);
  if (question === null) return { skip: 'the last assistant message does not end with exactly one question' };
  const waited = input.slot.getTime() - last.createdAt.getTime();
  if (waited < RETENTION.followUpAfterMs) return { skip: `the user has not replied for ${Math.floor(waited / 3_600_000)} h only` };
  const blocked = blockedTopics(input);
  const unsafe = replyTopics(question).filter((t) => blocked.has(t));
  if (unsafe.length > 0) return { skip: `the question touches ${unsafe.join(', ')}` };
  return { question };
}

/** The user's part of the day from "HH:MM" (the §14.0 attempt window is 10:00–21:00), or null. */
export function partOfDay(localTime: string): string | null {
  const m = /^(\d{1,2}):\d{2}$/.exec(localTime);
  if (!m) return null;
  const hour = Number(m[1]);
  if (hour > 23) return null;
  return hour < 12 ? 'morning' : hour < 17 ? 'afternoon' : 'evening';
}

function article(value: string): string {
  return /^[aeiou]/i.test(value) ? 'an' : 'a';
}

/** A value short and plain enough to name in passing: no sentence mark, question, quirk mark or aside. */
function plainValue(value: string): boolean {
  const words = value.trim().split(/\s+/).filter(Boolean);
  return words.length > 0 && words.length <= RETENTION.nudgeValueMaxWords && !/[.!?？！。…~()|]/.test(value);
}

type Nudge = { memory: RetentionMemory; bodies: string[] } | { skip: string };

/**
 * §14.5 step 2 with §14.6: FRIEND or CLOSE_FRIEND only; FACT memories in the
 * retention allowlist, not sensitive for retention, reliable (issue 17), none
 * of whose topics (its own, or what its rendering mentions) is sensitive,
 * suppressed or taboo; the most recently confirmed of them, and only that one.
 */
export function nudgeOf(input: Pick<RetentionInput, 'stage' | 'memories' | 'localTime' | 'suppressedTopics' | 'persona'>): Nudge {
  if (!RETENTION.nudgeStages.includes(input.stage)) return { skip: `stage ${input.stage}` };
  const blocked = blockedTopics(input);
  const part = partOfDay(input.localTime);
  const usable: { memory: RetentionMemory; bodies: string[] }[] = [];
  for (const m of input.memories) {
    if (m.type !== 'FACT' || !RETENTION_FACT_ALLOWLIST.includes(m.key) || isSensitive(m, 'retention') || !reliableForNudge(m)) continue;
    if (m.topicIds.some((t) => blocked.has(t))) continue;
    if (m.key === 'fact:timezone' ? part === null : !plainValue(m.value)) continue;
    const bodies = (NUDGE_FORMS[m.key] ?? []).map((f) =>
      f.replace('{v}', m.value.trim()).replace('{a}', article(m.value.trim())).replace('{part}', part ?? ''),
    );
    if (bodies.some((b) => replyTopics(b).some((t) => blocked.has(t)))) continue;
    usable.push({ memory: m, bodies });
  }
  if (usable.length === 0) return { skip: 'no allowlisted, non-sensitive, reliable ACTIVE fact' };
  const time = (m: RetentionMemory) => m.lastConfirmedAt?.getTime() ?? -Infinity;
  usable.sort((a, b) => time(b.memory) - time(a.memory) || b.memory.confidence - a.memory.confidence || (a.memory.memoryId < b.memory.memoryId ? -1 : 1));
  return usable[0]!;
}

/**
 * The hint tokens that read as an opening word of a message nobody asked for.
 * The rest react to something said ("obsessed", "busted", "proud of you",
 * "small step"), and as a lead they read as nonsense.
 */
export const LEAD_HINTS: ReadonlySet<string> = new Set(['aw', 'bestie', 'honestly', 'mm', 'ngl', 'ooh', 'real talk', 'sending warmth', 'yeah']);

/** The persona's hint tokens that fit as a lead at this stage: an opening word, its own lexicon and quirks, the stage's intimacy cap, no topic, no mark. */
export function usableHints(persona: RetentionPersona, stage: Stage): string[] {
  return persona.hintTokens.filter((token) => {
    if (!LEAD_HINTS.has(token.toLowerCase())) return false;
    if (/[.!?？！。…~()]/.test(token) || replyTopics(token).length > 0) return false;
    const probe = `${capitalize(token)}, okay.`;
    return intimacyGate(probe, stage).pass && lexiconGate(probe, persona.lexiconBias).pass && quirksGate(probe, persona.punctuationQuirks).pass;
  });
}

/** One rendering: `<Lead>, <body>` (or the body alone), lowercased whole for a persona with the `lowercase` quirk. */
export function weave(lead: string, body: string, lowercase: boolean): string {
  const text = lead ? `${capitalize(lead)}, ${lowerFirst(body)}` : capitalize(body);
  return lowercase ? text.toLowerCase() : text;
}

/**
 * The order of renders: every (body, lead) pair shuffled by the seeded PRNG,
 * then each next render takes a different lead (another hint token) and a
 * different body when one is left (§14.5 "re-render using different hint_tokens").
 */
export function renderOrder(bodies: number, leads: number, seed: number, max: number): [number, number][] {
  const rng = xoroshiro128plus(seed | 0);
  const pairs: [number, number][] = [];
  for (let b = 0; b < bodies; b++) for (let l = 0; l < leads; l++) pairs.push([b, l]);
  for (let i = pairs.length - 1; i > 0; i--) {
    const j = uniformInt(rng, 0, i);
    [pairs[i], pairs[j]] = [pairs[j]!, pairs[i]!];
  }
  const out: [number, number][] = [];
  while (out.length < max && pairs.length > 0) {
    const prev = out.at(-1);
    let k = prev ? pairs.findIndex(([b, l]) => b !== prev[0] && l !== prev[1]) : 0;
    if (k < 0) k = pairs.findIndex(([, l]) => l !== prev![1]);
    out.push(pairs.splice(Math.max(k, 0), 1)[0]!);
  }
  return out;
}

/**
 * Renders one retention message down the §14.5 ladder, first match wins:
 * 1. FOLLOW-UP: the last assistant message was a chat reply ending with its only
 *    question, unanswered for ≥ 24 h, on no blocked topic → one softer sentence
 *    asking it again, nothing new;
 * 2. LIGHT CONTEXT NUDGE (FRIEND, CLOSE_FRIEND): the most recently confirmed
 *    allowlisted, non-sensitive fact, exactly one;
 * 3. GENERIC-SAFE CHECK-IN by the stage's intent.
 * Each step renders `<lead>, <body>` in the seeded order (a follow-up: its soft
 * frame around the question); a render is kept when
 * it has ≤ 2 sentences (a follow-up exactly 1) and ≤ 1 question, touches no
 * blocked topic, its opener is not among the last 10 retention openers and the
 * caller's gates pass. After 1 + 5 renders: the shortest neutral opener.
 */
export function renderRetention(input: RetentionInput): RetentionRendering {
  const seed = retentionSeed(input.personaSeed, input.retentionId);
  const trace: string[] = [];
  const recent = new Set(input.recentOpeners.slice(0, RETENTION.recentOpeners).filter((o) => o !== ''));
  const blocked = blockedTopics(input);
  const lowercase = input.persona.punctuationQuirks.includes('lowercase');
  const hints = usableHints(input.persona, input.stage);
  const passes = (c: RetentionCandidate, step: RetentionStep) => (input.check?.(c, step) ?? []).every((v) => v.pass);

  function ladderStep(step: RetentionStep, intent: string, bodies: readonly string[], leads: readonly string[], surfaced: string[], rules: (text: string) => boolean): RetentionRendering {
    const order = renderOrder(bodies.length, leads.length, seed, 1 + RETENTION.maxRerenders);
    for (const [i, [b, l]] of order.entries()) {
      const text = weave(leads[l]!, bodies[b]!, lowercase);
      const c = { text, surfacedMemoryIds: surfaced };
      const opener = openerNorm(text);
      if (rules(text) && !recent.has(opener) && passes(c, step)) return { ...c, step, intent, renders: i + 1, opener, trace, seed };
    }
    // §14.5: every render repeated (or failed a gate): the shortest neutral opener, one not used lately when there is one.
    const neutral = [...NEUTRAL_OPENERS].sort((a, b) => a.length - b.length || (a < b ? -1 : 1)).map((t) => weave('', t, lowercase));
    const fresh = neutral.filter((t) => !recent.has(openerNorm(t)));
    const text = fresh.find((t) => passes({ text: t, surfacedMemoryIds: [] }, step)) ?? fresh[0] ?? neutral[0]!;
    return { text, surfacedMemoryIds: [], step, intent, renders: 0, opener: openerNorm(text), trace, seed };
  }

  const shape = (text: string, sentences: number) => {
    const n = segmentSentences(text).length;
    return n >= 1 && n <= sentences && questionMarks(text) <= RETENTION.maxQuestions && !replyTopics(text).some((t) => blocked.has(t));
  };

  const follow = followUpOf(input);
  if ('question' in follow) {
    const q = lowerFirst(follow.question);
    const own = new Set(replyTopics(follow.question));
    return ladderStep(
      'follow_up',
      'restate the open question softly',
      FOLLOW_UP_FORMS.map((f) => f.replace('{q}', q)),
      // The question is already the persona's own words: a softer frame, no hint on top.
      [''],
      [],
      // One sentence, and no topic the question did not have (§14.5 "MUST NOT introduce new topics").
      (text) => shape(text, 1) && replyTopics(text).every((t) => own.has(t)),
    );
  }
  trace.push(`follow_up: ${follow.skip}`);

  const nudge = nudgeOf(input);
  if ('memory' in nudge) {
    return ladderStep('context_nudge', `reference ${nudge.memory.key} lightly`, nudge.bodies, [...GREETINGS[input.stage], ...hints], [nudge.memory.memoryId], (text) =>
      shape(text, RETENTION.maxSentences),
    );
  }
  trace.push(`context_nudge: ${nudge.skip}`);

  const intent = CHECK_IN_INTENT[input.stage];
  return ladderStep('check_in', intent, CHECK_IN_BODIES[intent]!, [...GREETINGS[input.stage], ...hints], [], (text) => shape(text, RETENTION.maxSentences));
}
