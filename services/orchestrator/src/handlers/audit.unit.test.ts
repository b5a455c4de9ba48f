import { Events } from '@hearth/events';
import { initialRelationship, updateRelationship, type Evidence, type RelationshipState } from '../relationship/index.js';
import { reRelate } from './audit.js';
import { relationshipUpdatedOf } from './mapping.js';

const evidence: Evidence = { preferences: 1, meaningfulResponse: true, emotionalDisclosure: false, pastReference: false, disengaged: false, tokens: 14 };

/** A RelationshipUpdated as the orchestrator records it, through the wire format. */
function recorded(prev: RelationshipState | null, now: Date, e: Evidence = evidence) {
  const u = updateRelationship(prev, { now, evidence: e });
  const event = relationshipUpdatedOf({ messageId: 'm1', aiFriendId: 'f1' }, u, e);
  return { u, event: Events.RelationshipUpdated.decode(Events.RelationshipUpdated.encode(event)) };
}

describe("reRelate: a recorded relationship update under today's §11 rules", () => {
  it('finds nothing to change for updates today\'s rules made, first message and after a long gap alike', () => {
    const first = recorded(null, new Date('2026-11-01T10:00:00Z'));
    expect(reRelate(first.event)).toEqual([]);
    // Three weeks later: decay and a new session.
    const later = recorded(first.u.next, new Date('2026-11-22T10:00:00Z'), { ...evidence, disengaged: true, tokens: 1, meaningfulResponse: false });
    expect(later.event.decayPoints).toBeGreaterThan(0);
    expect(reRelate(later.event)).toEqual([]);
  });

  it('names each field a recorded update differs in', () => {
    const { event } = recorded({ ...initialRelationship(), rapportScore: 10 }, new Date('2026-11-01T10:00:00Z'));
    const tampered = { ...event, delta: event.delta + 1, next: { ...event.next!, rapportScore: event.next!.rapportScore + 1 } };

    expect(reRelate(tampered)).toEqual([
      { field: 'next.rapportScore', before: event.next!.rapportScore + 1, after: event.next!.rapportScore },
      { field: 'delta', before: event.delta + 1, after: event.delta },
    ]);
  });
});
