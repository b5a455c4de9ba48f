import { PIPELINE_POLICIES } from '../config.js';
import type { Decision, Pipeline, UserState } from './policies.js';

/** What the router sees of a turn (turn-pipeline §2.1). */
export interface TurnPacket {
  userState: UserState;
  text: string;
  source: 'chat' | 'retention';
}

export interface Routed {
  decision: Decision;
  /** The rules that fired, in order, for the audit trail. */
  flags: string[];
}

function decision(pipeline: Pipeline, notes: string, text: string): Decision {
  const refusal = pipeline === 'REFUSAL';
  return {
    pipeline,
    safety_policy: 'ALLOW',
    ...PIPELINE_POLICIES[pipeline],
    relationship_update_policy: refusal ? 'OFF' : 'ON',
    retrieval_query_text: PIPELINE_POLICIES[pipeline].vector_search_policy === 'ON_DEMAND' ? text : '',
    notes,
  };
}

/**
 * Routes one turn: a pure function of the packet. User-state gating is
 * authoritative (turn-pipeline §6.1); intent and safety routing of §6.2–§6.5
 * refine the ACTIVE branch.
 */
export function routeTurn(packet: TurnPacket): Routed {
  switch (packet.userState) {
    case 'CREATED':
      // §6.1.1: no chat before onboarding; nothing written, no relationship update.
      return { decision: decision('REFUSAL', 'user_state=CREATED: onboarding not completed', packet.text), flags: ['user_state:CREATED'] };
    case 'ONBOARDING':
      return { decision: decision('ONBOARDING_CHAT', 'user_state=ONBOARDING', packet.text), flags: ['user_state:ONBOARDING'] };
    case 'ACTIVE':
      return { decision: decision('FRIEND_CHAT', 'default intent', packet.text), flags: ['user_state:ACTIVE', 'intent:default'] };
    default: {
      const never: never = packet.userState;
      throw new Error(`unknown user state ${String(never)}`);
    }
  }
}

export function isUserState(v: string): v is UserState {
  return v === 'CREATED' || v === 'ONBOARDING' || v === 'ACTIVE';
}
