import { containsAny } from '@hearth/text';
import { GATES, RECIPE, SURFACING } from '../config.js';
import type { PersonaConstraints, Tone } from './constraints.js';

/** A memory the turn loaded, with what the planner needs to decide whether to use it. */
export interface PlannedMemory {
  memoryId: string;
  type: string;
  key: string;
  value: string;
  confidence: number;
  topicIds: string[];
  /** How much it is about the user's message, 0..1, as retrieved (issue 15). */
  relevance: number;
  /** YYYY-MM-DD the user stated, or '': a recalled event is told with its date. */
  occurredOn: string;
  /** day | week | month | year, or ''. */
  occurredPrecision: string;
  /** §14.6: sensitive unless its sensitive topic is user-initiated this turn. */
  sensitive: boolean;
}

export type OutlineKind = 'welcome' | 'greet' | 'validate' | 'presence' | 'react' | 'share' | 'answer' | 'uncertain' | 'callback' | 'respond_only' | 'invite';

export interface OutlineItem {
  kind: OutlineKind;
  detail: string;
  /** For `callback`: the memory it uses. */
  memoryId?: string;
}

/** The ResponsePlan of turn-pipeline §8.1. */
export interface ResponsePlan {
  ackStyle: 'brief' | 'none';
  outline: OutlineItem[];
  /** A directive for the one follow-up question, or '' for none. */
  followupQuestion: string;
  emotionalTone: Tone;
  tabooGuard: string[];
  constraints: PersonaConstraints;
  userInitiatedTopics: string[];
  recentInitiatedTopics: string[];
  respondOnlyTopics: string[];
  memoryIds: string[];
  recallAsked: boolean;
}

export interface PlanInput {
  pipeline: string;
  source: 'chat' | 'retention';
  /** The user's message contains a question mark. */
  isQuestion: boolean;
  emotion: { valence: number; intensity: number; tags: readonly string[] };
  constraints: PersonaConstraints;
  initiatedNow: readonly string[];
  initiatedRecent: readonly string[];
  suppressedTopics: readonly string[];
  /** Words of the user's message (norm_no_punct tokens). */
  userTokens: readonly string[];
  memories: readonly PlannedMemory[];
  /** Memories the conversation's last few replies said back (SURFACING.notAgainWithinReplies). */
  recentlySurfaced?: readonly string[];
  recallAsked: boolean;
  directness: string;
}

const TOPIC_WORDS: Readonly<Record<string, string>> = {
  WORK_SCHOOL: 'work or school',
  TRAVEL: 'the trip',
  ENTERTAINMENT: 'what you have been watching',
  TECH_GAMING: 'the game',
  FAMILY: 'your family',
  RELATIONSHIPS: 'the people in your life',
  MEDICAL_HEALTH: 'your health',
  MENTAL_HEALTH: 'how you have been feeling',
  PERSONAL_FINANCE: 'money stuff',
};

// A message made only of these words is a greeting ("hi", "hey there", "good
// morning"), when at least one of them greets: it gets a greeting back, not a
// reaction to "what you shared" (not a spec rule: the spec plans no small talk).
const GREETS = new Set(['hi', 'hii', 'hiii', 'hey', 'heyy', 'heya', 'hiya', 'hello', 'helo', 'howdy', 'yo', 'morning', 'afternoon', 'evening', 'hola']);
const GREETING_FILLERS = new Set(['good', 'there', 'again', 'all', 'you', 'friend', 'buddy', 'oh']);

/** True for a message that only greets (its norm_no_punct tokens). */
export function isBareGreeting(tokens: readonly string[]): boolean {
  return tokens.length > 0 && tokens.length <= 4 && tokens.some((t) => GREETS.has(t)) && tokens.every((t) => GREETS.has(t) || GREETING_FILLERS.has(t));
}

/** The plain words a TopicID is spoken of in a plan (the renderer reuses them). */
export function topicPhrase(topic: string): string {
  return TOPIC_WORDS[topic] ?? topic.toLowerCase().replace(/_/g, ' ');
}

/**
 * §10.1, §13 and §14.6 at planning time (issue 15): which memories the reply
 * may use. Never a sensitive one, and only what the message is about: in an
 * ordinary turn those of relevance ≥ SURFACING.relevanceThreshold, at most 2
 * (§10.1); on a recall question ("do you remember …") the search's answer from
 * the lower SURFACING.recallThreshold up, at most topK (§13); in retention at
 * most 1. Most relevant first, equal ones in the order retrieved. Nothing is
 * surfaced just because it exists, nothing the message changes or denies, and,
 * unless recall was asked, nothing the last few replies already said back.
 */
export function chooseMemories(input: Pick<PlanInput, 'memories' | 'recallAsked' | 'source'> & Partial<Pick<PlanInput, 'userTokens' | 'recentlySurfaced'>>): PlannedMemory[] {
  const recall = input.source === 'chat' && input.recallAsked;
  const threshold = recall ? SURFACING.recallThreshold : SURFACING.relevanceThreshold;
  const limit = input.source === 'retention' ? GATES.personalFacts.retention : recall ? RECIPE.vectorTopK : GATES.personalFacts.chat;
  const tokens = input.source === 'chat' ? (input.userTokens ?? []) : [];
  const said = new Set(recall ? [] : (input.recentlySurfaced ?? []));
  return input.memories
    .filter((m) => !m.sensitive && m.relevance >= threshold && !contradictedBy(tokens, m) && !said.has(m.memoryId))
    .sort((a, b) => b.relevance - a.relevance)
    .slice(0, limit);
}

function says(tokens: readonly string[], words: readonly string[]): boolean {
  return containsAny(tokens.join(' '), words).length > 0;
}

/**
 * The message this reply answers changes or denies the memory it is about ("I
 * hate sushi" against like|sushi; "actually I live in Busan, not Seoul" against
 * current_city = seoul): the reply must not assert it. Events and patterns the
 * user tells of are not stances and stay. Pure; `tokens` are the message's
 * norm_no_punct tokens.
 */
export function contradictedBy(tokens: readonly string[], m: Pick<PlannedMemory, 'type' | 'value'>): boolean {
  if (tokens.length === 0 || (m.type !== 'PREFERENCE' && m.type !== 'FACT')) return false;
  const s = SURFACING.stance;
  if (says(tokens, s.change)) return true;
  if (m.value.startsWith('like|')) return says(tokens, s.negative);
  if (m.value.startsWith('dislike|')) return says(tokens, s.positive);
  return false;
}

/**
 * Stage D (§8.1): what the reply does, within the persona's limits (§8.2).
 * Pure: the same inputs give the same plan.
 */
export function planResponse(input: PlanInput): ResponsePlan {
  const c = input.constraints;
  const respondOnly = input.suppressedTopics.filter((t) => input.initiatedNow.includes(t));
  const tone = chooseTone(input);
  const memories = chooseMemories(input);
  const outline: OutlineItem[] = [];
  const topic = input.initiatedNow.find((t) => !respondOnly.includes(t) && !c.tabooTopics.includes(t));
  const about = topic ? topicPhrase(topic) : 'what you shared';
  const greeting = input.pipeline === 'FRIEND_CHAT' && input.source === 'chat' && isBareGreeting(input.userTokens);
  switch (input.pipeline) {
    case 'ONBOARDING_CHAT':
      outline.push({ kind: 'welcome', detail: 'welcome them warmly, by name' }, { kind: 'invite', detail: 'invite them to share a little about themselves' });
      break;
    case 'EMOTIONAL_SUPPORT':
      outline.push(
        { kind: 'validate', detail: `validate the feeling${input.emotion.tags.length ? ` (${input.emotion.tags.filter((t) => !t.includes(':')).join(', ')})` : ''}` },
        { kind: 'presence', detail: 'stay with them; no advice unless asked' },
      );
      break;
    case 'INFO_QA':
      outline.push({ kind: 'answer', detail: 'answer the question briefly and plainly' }, { kind: 'uncertain', detail: 'say honestly what you are not sure of' });
      break;
    default:
      if (greeting) outline.push({ kind: 'greet', detail: 'greet them back, by name' });
      else outline.push({ kind: 'react', detail: `react to ${about}` }, { kind: 'share', detail: 'share a brief thought in character' });
  }
  for (const t of respondOnly) outline.push({ kind: 'respond_only', detail: `answer only what was asked about ${topicPhrase(t)}; do not expand` });
  for (const m of memories) outline.push({ kind: 'callback', detail: `recall ${m.key} = ${m.value}`, memoryId: m.memoryId });
  const askAllowed = c.maxFollowupQuestions > 0 && respondOnly.length === 0 && input.pipeline !== 'INFO_QA';
  let followup = '';
  if (askAllowed) {
    if (input.pipeline === 'EMOTIONAL_SUPPORT') followup = 'ask gently what would help right now';
    else if (input.pipeline === 'ONBOARDING_CHAT') followup = 'ask what they enjoy doing';
    else if (greeting) followup = 'ask how they are doing';
    else if (!input.isQuestion) followup = `ask one open question about ${about}`;
  }
  return {
    // "Got it" is no answer to "hi".
    ackStyle: input.pipeline === 'INFO_QA' || greeting ? 'none' : 'brief',
    outline,
    followupQuestion: followup,
    emotionalTone: tone,
    tabooGuard: [...c.tabooTopics],
    constraints: c,
    userInitiatedTopics: [...input.initiatedNow],
    recentInitiatedTopics: [...input.initiatedRecent],
    respondOnlyTopics: respondOnly,
    memoryIds: memories.map((m) => m.memoryId),
    recallAsked: input.recallAsked,
  };
}

/** §8.1 emotional_tone, bounded by the persona's allowed tones. */
function chooseTone(input: PlanInput): Tone {
  const allowed = input.constraints.allowedTones;
  const negative = input.emotion.valence <= -0.3 || input.pipeline === 'EMOTIONAL_SUPPORT';
  const wanted: Tone = negative ? 'supportive' : input.directness === 'blunt' ? 'blunt' : input.emotion.valence >= 0.3 ? 'playful' : 'calm';
  return allowed.includes(wanted) ? wanted : 'calm';
}

/** The plan as the proto carries it (outline items as `kind: detail`). */
export function planToProto(plan: ResponsePlan) {
  const c = plan.constraints;
  return {
    ackStyle: plan.ackStyle,
    answerOutline: plan.outline.map((o) => `${o.kind}: ${o.detail}`),
    followupQuestion: plan.followupQuestion,
    emotionalTone: plan.emotionalTone,
    tabooGuard: plan.tabooGuard,
    constraints: c,
    userInitiatedTopics: plan.userInitiatedTopics,
    recentInitiatedTopics: plan.recentInitiatedTopics,
    respondOnlyTopics: plan.respondOnlyTopics,
    memoryIds: plan.memoryIds,
    recallAsked: plan.recallAsked,
  };
}
