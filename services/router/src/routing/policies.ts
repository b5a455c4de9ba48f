/** Pipelines of turn-pipeline §2.2. */
export type Pipeline = 'ONBOARDING_CHAT' | 'FRIEND_CHAT' | 'EMOTIONAL_SUPPORT' | 'INFO_QA' | 'REFUSAL';
export type SafetyPolicy = 'ALLOW' | 'SOFT_REFUSE' | 'HARD_REFUSE';
export type MemoryReadPolicy = 'NONE' | 'LIGHT' | 'FULL';
export type VectorSearchPolicy = 'OFF' | 'ON_DEMAND';
export type MemoryWritePolicy = 'NONE' | 'SELECTIVE';
export type RelationshipUpdatePolicy = 'ON' | 'OFF';
export type UserState = 'CREATED' | 'ONBOARDING' | 'ACTIVE';

export interface Decision {
  pipeline: Pipeline;
  safety_policy: SafetyPolicy;
  memory_read_policy: MemoryReadPolicy;
  vector_search_policy: VectorSearchPolicy;
  memory_write_policy: MemoryWritePolicy;
  relationship_update_policy: RelationshipUpdatePolicy;
  retrieval_query_text: string;
  notes: string;
  /** The §6.2 rule that routed the turn, or "" when none did. */
  safety_reason: string;
  /** The reply must follow the crisis-safe flow (self-harm intent). */
  crisis_safe: boolean;
}
