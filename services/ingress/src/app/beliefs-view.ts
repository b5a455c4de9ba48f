import type { belief } from '@hearth/proto';

/** Whose beliefs a node holds (specs README "Whose beliefs"): the user's self-perceptions or the companion's self-statements. */
export const BELIEF_HOLDERS = ['user', 'companion'] as const;
export type BeliefHolder = (typeof BELIEF_HOLDERS)[number];

/** One node of the belief graph (API.md GET /v1/admin/users/{user_id}/beliefs). */
export interface BeliefNodeView {
  belief_id: string;
  holder: string;
  canonical_text: string;
  belief_type: string;
  polarity: string;
  /** identity | state | meta | relational */
  stream: string;
  /** surface | developing | core */
  status: string;
  confidence: number;
  activation: number;
  core_score: number;
  occurrence_count: number;
  source_message_ids: string[];
  created_at: string;
}

/** A tentative link between two nodes (self-belief-decomposer §8.3). */
export interface BeliefLinkView {
  link_id: string;
  from_belief_id: string;
  to_belief_id: string;
  confidence: number;
  /** pending | accepted | rejected | merged */
  state: string;
}

/** A conflict edge between nodes. */
export interface BeliefConflictView {
  conflict_id: string;
  belief_ids: string[];
  /** contradiction | tension */
  conflict_type: string;
  source_message_ids: string[];
  created_at: string;
}

/** A challenge put to the user about one of their beliefs (belief-challenge.md). */
export interface BeliefChallengeView {
  challenge_id: string;
  belief_id: string;
  /** gentle | curious | reflective */
  style: string;
  message_id: string;
  created_at: string;
}

/** The admin view of a user's belief graph. */
export interface BeliefGraphView {
  nodes: BeliefNodeView[];
  links: BeliefLinkView[];
  conflicts: BeliefConflictView[];
  challenges: BeliefChallengeView[];
}

/** The user's own beliefs in the export: as the admin view, without links (API.md). */
export type ExportBeliefsView = Omit<BeliefGraphView, 'links'>;

/** The belief graph's GetBeliefs answer as the admin API shows it, timestamps as ISO text. */
export function beliefGraphView(response: belief.GetBeliefsResponse): BeliefGraphView {
  return {
    nodes: response.nodes.map(nodeView),
    links: response.links.map(linkView),
    conflicts: response.conflicts.map(conflictView),
    challenges: response.challenges.map(challengeView),
  };
}

/** The export's `beliefs`: the graph's nodes, conflicts and challenges; links are an admin concern (API.md). */
export function exportBeliefsView(response: belief.GetBeliefsResponse): ExportBeliefsView {
  const { nodes, conflicts, challenges } = beliefGraphView(response);
  return { nodes, conflicts, challenges };
}

// Protobuf has no null timestamp; the graph always sets one, so '' only marks a broken answer.
const iso = (at: Date | undefined): string => at?.toISOString() ?? '';

function nodeView(n: belief.BeliefNode): BeliefNodeView {
  return {
    belief_id: n.beliefId,
    holder: n.holder,
    canonical_text: n.canonicalText,
    belief_type: n.beliefType,
    polarity: n.polarity,
    stream: n.stream,
    status: n.status,
    confidence: n.confidence,
    activation: n.activation,
    core_score: n.coreScore,
    occurrence_count: n.occurrenceCount,
    source_message_ids: [...n.sourceMessageIds],
    created_at: iso(n.createdAt),
  };
}

function linkView(l: belief.BeliefLink): BeliefLinkView {
  return { link_id: l.linkId, from_belief_id: l.fromBeliefId, to_belief_id: l.toBeliefId, confidence: l.confidence, state: l.state };
}

function conflictView(c: belief.BeliefConflict): BeliefConflictView {
  return {
    conflict_id: c.conflictId,
    belief_ids: [...c.beliefIds],
    conflict_type: c.conflictType,
    source_message_ids: [...c.sourceMessageIds],
    created_at: iso(c.createdAt),
  };
}

function challengeView(c: belief.BeliefChallenge): BeliefChallengeView {
  return { challenge_id: c.challengeId, belief_id: c.beliefId, style: c.style, message_id: c.messageId, created_at: iso(c.createdAt) };
}
