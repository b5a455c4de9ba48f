import { preprocess, userInitiatedTopics, type Preprocessed, type TopicLexicon } from '@hearth/text';
import { PIPELINE_POLICIES, ROUTER, SAFETY_LEXICON, type SafetyLexicon } from '../config.js';
import { intentFlags, type IntentFlags } from './intent.js';
import type { Decision, MemoryReadPolicy, Pipeline, SafetyPolicy, UserState } from './policies.js';
import { assessSafety, type SafetyOverride } from './safety.js';

/** What the router sees of a turn (turn-pipeline §2.1). */
export interface TurnPacket {
  userState: UserState;
  text: string;
  source: 'chat' | 'retention';
  /** From onboarding; "" or an unknown value means unknown (§6.2.1). */
  ageBand: string;
  /** This message moves an ONBOARDING user to ACTIVE (§4.1.2). */
  activatesUser: boolean;
  /** For an ONBOARDING user it could not activate: what is missing (§4.1.2 step 5). */
  missingOnboarding: readonly string[];
}

/** Tables the rules read; tests may pass their own. */
export interface RouteOptions {
  lexicon?: TopicLexicon;
  safety?: SafetyLexicon;
}

export interface Routed {
  decision: Decision;
  /** The flags and rules that led to the decision, in order, for the audit trail. */
  flags: string[];
  /** Stage A outputs: normalized text, token estimate, heuristic flags, topics (§5). */
  preprocessed: Preprocessed;
  intent: IntentFlags;
}

interface Route {
  pipeline: Pipeline;
  safety: SafetyPolicy;
  notes: string;
  override?: SafetyOverride;
  /** A user-state gate (§6.1.1, §4.1.2 step 5): no chat, no writes, no relationship update. */
  gated?: boolean;
}

function decide(route: Route, pre: Preprocessed, intent: IntentFlags): Decision {
  const policies = PIPELINE_POLICIES[route.pipeline];
  const hardRefusal = route.safety === 'HARD_REFUSE' || route.gated === true;
  // §6.3: INFO_QA reads no memory "unless user asks personal".
  const memoryRead: MemoryReadPolicy = route.pipeline === 'INFO_QA' && intent.has_personal_pronoun ? 'LIGHT' : policies.memory_read_policy;
  return {
    pipeline: route.pipeline,
    safety_policy: route.safety,
    memory_read_policy: memoryRead,
    vector_search_policy: policies.vector_search_policy,
    // §6.2: a refusal writes no memory, soft or hard.
    memory_write_policy: route.safety === 'ALLOW' && route.gated !== true ? policies.memory_write_policy : 'NONE',
    // §2.2, §6.1.1, §6.2: OFF only for hard refusals.
    relationship_update_policy: hardRefusal ? 'OFF' : 'ON',
    retrieval_query_text: policies.vector_search_policy === 'ON_DEMAND' ? pre.userTextNorm.slice(0, ROUTER.retrievalQueryMaxChars) : '',
    notes: route.notes,
    safety_reason: route.override?.reason ?? '',
    crisis_safe: route.override?.crisisSafe ?? false,
  };
}

/** Intent routing of an ACTIVE user's turn once no safety rule applies (§6.5 rules 2–4 and the tie-breaker). */
function routeIntent(intent: IntentFlags, flags: string[]): Route {
  if (intent.has_distress || intent.asks_for_comfort) {
    flags.push('intent:EMOTIONAL_SUPPORT');
    return { pipeline: 'EMOTIONAL_SUPPORT', safety: 'ALLOW', notes: 'distress or a request for comfort' };
  }
  if (intent.is_pure_fact_q && intent.has_personal_pronoun) {
    flags.push('tie_breaker:question_with_personal_pronoun', 'intent:FRIEND_CHAT');
    return { pipeline: 'FRIEND_CHAT', safety: 'ALLOW', notes: 'a question about the user themselves' };
  }
  if (intent.is_pure_fact_q) {
    flags.push('intent:INFO_QA');
    return { pipeline: 'INFO_QA', safety: 'ALLOW', notes: 'a short factual question' };
  }
  flags.push('intent:FRIEND_CHAT');
  return { pipeline: 'FRIEND_CHAT', safety: 'ALLOW', notes: 'default intent' };
}

function intentFlagNames(intent: IntentFlags): string[] {
  const out: string[] = [];
  for (const name of ['is_question', 'has_personal_pronoun', 'has_distress', 'asks_for_comfort', 'is_pure_fact_q'] as const) {
    if (intent[name]) out.push(name);
  }
  for (const d of intent.matched.distress) out.push(`distress:${d}`);
  for (const c of intent.matched.comfort) out.push(`comfort:${c}`);
  return out;
}

/**
 * Routes one turn: a pure function of the packet (turn-pipeline §5–§6).
 * User-state gating is authoritative (§6.1): a CREATED user is refused before
 * anything else; for ONBOARDING and ACTIVE users the safety hard rules
 * override everything (§6.5 rule 1); an ONBOARDING user otherwise gets
 * ONBOARDING_CHAT, an ACTIVE one intent routing.
 */
export function routeTurn(packet: TurnPacket, options: RouteOptions = {}): Routed {
  const preprocessed = preprocess(packet.text, options.lexicon);
  const intent = intentFlags(preprocessed);
  const flags = [`user_state:${packet.userState}`];
  for (const [name, on] of Object.entries(preprocessed.heuristicFlags)) if (on) flags.push(`heuristic:${name}`);
  for (const t of userInitiatedTopics(preprocessed.topicMatches)) flags.push(`user_initiated:${t}`);
  flags.push(...intentFlagNames(intent));

  const done = (route: Route): Routed => ({ decision: decide(route, preprocessed, intent), flags, preprocessed, intent });

  switch (packet.userState) {
    case 'CREATED':
      // §6.1.1: no chat before onboarding; nothing written, no relationship update.
      return done({ pipeline: 'REFUSAL', safety: 'ALLOW', notes: 'user_state=CREATED: onboarding not completed', gated: true });
    case 'ONBOARDING':
      if (!packet.activatesUser) {
        // §4.1.2 step 5: the re-check failed, so no friend response; say what is missing.
        const missing = packet.missingOnboarding.length > 0 ? packet.missingOnboarding : ['onboarding'];
        flags.push(...missing.map((m) => `onboarding_incomplete:${m}`));
        return done({ pipeline: 'ONBOARDING_CHAT', safety: 'ALLOW', notes: `onboarding incomplete: missing ${missing.join(', ')}`, gated: true });
      }
      break;
    case 'ACTIVE':
      break;
    default: {
      const never: never = packet.userState;
      throw new Error(`unknown user state ${String(never)}`);
    }
  }

  const safety = assessSafety(
    { normNoPunct: preprocessed.normNoPunct, topics: preprocessed.topicMatches, intent, ageBand: packet.ageBand },
    options.safety ?? SAFETY_LEXICON,
  );
  flags.push(`age_band:${safety.effectiveAgeBand}${packet.ageBand === safety.effectiveAgeBand ? '' : ' (unknown, §6.2.1)'}`);
  flags.push(...safety.signals.map((s) => `safety_signal:${s}`));
  if (safety.override) {
    const o = safety.override;
    flags.push(`safety:${o.reason}`);
    return done({ pipeline: o.pipeline, safety: o.policy, notes: `safety rule ${o.reason}`, override: o });
  }
  if (packet.userState === 'ONBOARDING') {
    return done({ pipeline: 'ONBOARDING_CHAT', safety: 'ALLOW', notes: 'user_state=ONBOARDING' });
  }
  return done(routeIntent(intent, flags));
}

export function isUserState(v: string): v is UserState {
  return v === 'CREATED' || v === 'ONBOARDING' || v === 'ACTIVE';
}
