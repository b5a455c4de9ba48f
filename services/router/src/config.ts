import type { Decision, Pipeline } from './routing/policies.js';

/**
 * The router's numbers and tables, each with its spec section. The intent,
 * safety and topic rules of §5–§6.5 add theirs here.
 */
export type Policies = Pick<Decision, 'memory_read_policy' | 'vector_search_policy' | 'memory_write_policy'>;

/** Memory policies by pipeline (turn-pipeline §6.3; REFUSAL per §6.1.1). */
export const PIPELINE_POLICIES: Readonly<Record<Pipeline, Policies>> = Object.freeze({
  ONBOARDING_CHAT: { memory_read_policy: 'LIGHT', vector_search_policy: 'OFF', memory_write_policy: 'SELECTIVE' },
  FRIEND_CHAT: { memory_read_policy: 'FULL', vector_search_policy: 'ON_DEMAND', memory_write_policy: 'SELECTIVE' },
  EMOTIONAL_SUPPORT: { memory_read_policy: 'LIGHT', vector_search_policy: 'OFF', memory_write_policy: 'SELECTIVE' },
  INFO_QA: { memory_read_policy: 'NONE', vector_search_policy: 'OFF', memory_write_policy: 'NONE' },
  REFUSAL: { memory_read_policy: 'NONE', vector_search_policy: 'OFF', memory_write_policy: 'NONE' },
});
