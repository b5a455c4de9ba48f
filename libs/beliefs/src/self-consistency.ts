import { detectConflicts } from './conflict.js';
import { decompose } from './decompose.js';
import { nodeViewOf } from './step.js';
import type { NodeView } from './types.js';

export interface SelfConsistencyIssue {
  atomText: string;
  beliefId: string;
  conflictType: 'contradiction' | 'tension';
}

/**
 * The orchestrator's self-consistency gate: decompose a draft reply as the
 * companion's statement and check each atom against the core companion beliefs
 * with the conflict engine's rules (§4.15, temporal exclusion included). `embed`
 * must be the embedder that made the core nodes' vectors, applied to the atom's
 * embedding text (as the graph does). Pure as long as `embed` is.
 */
export function selfConsistency(draftText: string, core: readonly NodeView[], embed: (text: string) => number[]): SelfConsistencyIssue[] {
  const { atoms } = decompose({ text: draftText, conversationId: 'draft', holder: 'companion' });
  return atoms.flatMap((atom, i) => {
    const draft = nodeViewOf(atom, embed(atom.embeddingText), `draft:${i}`);
    return detectConflicts(draft, core).map((c) => ({
      atomText: atom.canonicalText,
      beliefId: c.nodeAId === draft.beliefId ? c.nodeBId : c.nodeAId,
      conflictType: c.conflictType,
    }));
  });
}
