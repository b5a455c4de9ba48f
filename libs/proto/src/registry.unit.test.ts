import { common, eventCodecs, ingress, isEventTypeName, orchestrator, router, typeName, UnknownEventTypeError } from '@hearth/proto';
import type { EventMessage, EventTypeName } from '@hearth/proto';

describe('Envelope', () => {
  it('round-trips through encode/decode with its Date, bigint and bytes fields', () => {
    // given
    const payload = ingress.TurnReceived.encode(
      ingress.TurnReceived.fromPartial({ messageId: 'm-1', conversationId: 'c-1', text: 'hi', source: 'chat' }),
    ).finish();
    const envelope = common.Envelope.fromPartial({
      eventId: 'e-1',
      type: typeName(ingress.TurnReceived),
      userId: 'u-1',
      occurredAt: new Date('2025-01-02T03:04:05.678Z'),
      causationId: 'cmd-1',
      correlationId: 'turn-1',
      schemaVersion: 1,
      payload,
      prevSubjectSeq: 2n ** 40n,
      service: 'ingress',
    });

    // when
    const decoded = common.Envelope.decode(common.Envelope.encode(envelope).finish());

    // then
    expect(decoded).toEqual({ ...envelope, payload: expect.any(Uint8Array) as unknown });
    expect(Array.from(decoded.payload)).toEqual(Array.from(payload));
    expect(decoded.occurredAt).toBeInstanceOf(Date);
    expect(decoded.prevSubjectSeq).toBe(2n ** 40n);
    expect(ingress.TurnReceived.decode(decoded.payload).text).toBe('hi');
  });
});

describe('eventCodecs', () => {
  it('holds every message of the *events.proto files under its fully-qualified name', () => {
    expect(Object.keys(eventCodecs).sort()).toEqual(
      [
        'hearth.belief.v1.BeliefChallengeIssued',
        'hearth.belief.v1.BeliefConfidenceUpdated',
        'hearth.belief.v1.BeliefGardened',
        'hearth.belief.v1.BeliefsExtracted',
        'hearth.belief.v1.BeliefsMerged',
        'hearth.belief.v1.ConflictDetected',
        'hearth.belief.v1.EpistemicFrame',
        'hearth.belief.v1.ExtractedAtom',
        'hearth.belief.v1.ExtractorVersionRolledBack',
        'hearth.belief.v1.LinkEvidence',
        'hearth.belief.v1.RejectedAtom',
        'hearth.belief.v1.Span',
        'hearth.common.v1.ErasureApplied',
        'hearth.common.v1.UserErased',
        'hearth.ingress.v1.AdminAccessed',
        'hearth.ingress.v1.AppOpened',
        'hearth.ingress.v1.ControlsUpdated',
        'hearth.ingress.v1.OnboardingAnswered',
        'hearth.ingress.v1.OnboardingAnswers',
        'hearth.ingress.v1.TurnReceived',
        'hearth.ingress.v1.UserCreated',
        'hearth.memory.v1.Candidate',
        'hearth.memory.v1.MemoriesInvalidated',
        'hearth.memory.v1.MemoryConfirmed',
        'hearth.memory.v1.MemoryRecorded',
        'hearth.memory.v1.TurnMemoryWritten',
        'hearth.orchestrator.v1.BeliefContext',
        'hearth.orchestrator.v1.ChallengeWoven',
        'hearth.orchestrator.v1.ChatMessage',
        'hearth.orchestrator.v1.ChatRefused',
        'hearth.orchestrator.v1.DeltaPart',
        'hearth.orchestrator.v1.EmotionReading',
        'hearth.orchestrator.v1.GateVerdict',
        'hearth.orchestrator.v1.GateVerdict_MeasuredEntry',
        'hearth.orchestrator.v1.LlmExchange',
        'hearth.orchestrator.v1.PersonaConstraints',
        'hearth.orchestrator.v1.RelationshipEvidence',
        'hearth.orchestrator.v1.RelationshipState',
        'hearth.orchestrator.v1.RelationshipUpdated',
        'hearth.orchestrator.v1.ResponsePlan',
        'hearth.orchestrator.v1.RetentionDeclined',
        'hearth.orchestrator.v1.Retrieval',
        'hearth.orchestrator.v1.RetrievedMemory',
        'hearth.orchestrator.v1.PersonaAssigned',
        'hearth.orchestrator.v1.StableStyleParams',
        'hearth.orchestrator.v1.TurnCompleted',
        'hearth.orchestrator.v1.UncertaintyContext',
        'hearth.retention.v1.AppOpenAttributed',
        'hearth.retention.v1.Eligibility',
        'hearth.retention.v1.RetentionAcknowledged',
        'hearth.retention.v1.RetentionIgnored',
        'hearth.retention.v1.RetentionPlanned',
        'hearth.router.v1.RoutingDecision',
        'hearth.router.v1.TopicMatch',
        'hearth.router.v1.TurnRouted',
        'hearth.uncertainty.v1.DriftCycled',
        'hearth.uncertainty.v1.Match',
        'hearth.uncertainty.v1.MessageChecked',
        'hearth.uncertainty.v1.ReliabilityChanged',
        'hearth.uncertainty.v1.Subject',
        'hearth.uncertainty.v1.ToleranceAdjusted',
        'hearth.uncertainty.v1.UncertaintyRecorded',
        'hearth.uncertainty.v1.UncertaintyResolved',
        'hearth.uncertainty.v1.UncertaintySteppedDown',
        'hearth.uncertainty.v1.UncertaintySurfaced',
        'hearth.trust.v1.ActorShare',
        'hearth.trust.v1.FeedbackRecorded',
        'hearth.trust.v1.FeedbackTag',
        'hearth.trust.v1.GardenerDecided',
        'hearth.trust.v1.OutcomeComponents',
        'hearth.trust.v1.OutcomeEvaluated',
        'hearth.trust.v1.TrustUpdated',
      ].sort(),
    );
    expect(eventCodecs['hearth.router.v1.TurnRouted']).toBe(router.TurnRouted);
    expect(Object.isFrozen(eventCodecs)).toBe(true);
  });

  it('decodes a payload by the name carried in Envelope.type', () => {
    // given
    const name: string = 'hearth.orchestrator.v1.PersonaAssigned';
    const bytes = orchestrator.PersonaAssigned.encode(
      orchestrator.PersonaAssigned.fromPartial({ aiFriendId: 'f-1', personaSeed: 7 }),
    ).finish();

    // when
    if (!isEventTypeName(name)) throw new Error('expected a known name');
    const message = eventCodecs[name].decode(bytes);

    // then
    // Default values are in the JSON too (emitDefaultValues=json-methods): an audit reads false and 0 as such.
    expect(eventCodecs[name].toJSON(message as never)).toMatchObject({ aiFriendId: 'f-1', personaSeed: 7, fallback: false, resamples: 0, templateId: '' });
  });

  it('is typed by name', () => {
    const received: EventMessage<'hearth.ingress.v1.TurnReceived'> = eventCodecs[
      'hearth.ingress.v1.TurnReceived'
    ].fromPartial({ text: 'typed' });
    const name: 'hearth.router.v1.TurnRouted' = typeName(router.TurnRouted);
    const names: EventTypeName[] = [name];
    expect(received.text).toBe('typed');
    expect(names).toEqual(['hearth.router.v1.TurnRouted']);
  });
});

describe('typeName', () => {
  it('names an event message object', () => {
    expect(typeName(orchestrator.TurnCompleted)).toBe('hearth.orchestrator.v1.TurnCompleted');
    expect(typeName(ingress.UserCreated)).toBe('hearth.ingress.v1.UserCreated');
  });

  it('rejects a message that is not an event', () => {
    expect(() => typeName(orchestrator.GetPersonaRequest as never)).toThrow(UnknownEventTypeError);
    expect(isEventTypeName('hearth.common.v1.Envelope')).toBe(false);
  });
});
