import { Events } from '@hearth/events';
import type { StoredEvent } from '@hearth/bus';
import { ingress } from '@hearth/proto';
import { auditEventOf, belongsToTurn, buildTurnTrail, REFUSED_OUTCOME, withoutForgottenValues, type AuditEvent } from './audit.js';

const MESSAGE = '5d1c3a2e-0b6f-4a59-9c1e-7f2a8d4b6c10';
const turn = { messageId: MESSAGE, userId: 'u1', conversationId: 'c1' };

let n = 0;
function event(type: string, service: string, payload: unknown, over: Partial<AuditEvent> = {}): AuditEvent {
  n += 1;
  return {
    type,
    event_id: `e${n}`,
    occurred_at: `2026-11-22T10:00:0${n % 10}.000Z`,
    service,
    causation_id: '',
    correlation_id: MESSAGE,
    payload,
    erased: false,
    ...over,
  };
}

const gate = { gate: 'emoji_band', pass: true, measured: { emoji_count: '0' } };
const exchange = { provider: 'offline-template', model: 'template-v0', output: 'hey', purpose: 'reply', attempt: 1 };

describe('belongsToTurn', () => {
  it('takes an event correlated with the message', () => {
    expect(belongsToTurn(event('x', 'memory', {}), MESSAGE)).toBe(true);
  });

  it('leaves out an event correlated with another turn, whatever its payload names', () => {
    expect(belongsToTurn(event('x', 'memory', { messageId: MESSAGE }, { correlation_id: 'other' }), MESSAGE)).toBe(false);
  });

  it('takes an uncorrelated event by the message its payload names', () => {
    expect(belongsToTurn(event('x', 'router', { messageId: MESSAGE }, { correlation_id: '' }), MESSAGE)).toBe(true);
    expect(belongsToTurn(event('x', 'router', { messageId: 'other' }, { correlation_id: '' }), MESSAGE)).toBe(false);
    expect(belongsToTurn(event('x', 'router', null, { correlation_id: '' }), MESSAGE)).toBe(false);
  });
});

describe('buildTurnTrail', () => {
  it('reads each stage of a completed turn from its event', () => {
    // given
    const received = event(Events.TurnReceived.name, 'ingress', { messageId: MESSAGE, text: 'hi' });
    const routed = event(Events.TurnRouted.name, 'router', { messageId: MESSAGE, decision: { pipeline: 'FRIEND_CHAT' } });
    const completed = event(Events.TurnCompleted.name, 'orchestrator', {
      messageId: MESSAGE,
      surfacedMemoryIds: ['m1'],
      plan: { ackStyle: 'brief' },
      gates: [gate],
      llm: exchange,
      exchanges: [exchange],
      outcome: 'draft',
      retrieval: { memoryReadPolicy: 'FULL', status: 'ok' },
    });
    const relationship = event(Events.RelationshipUpdated.name, 'orchestrator', { messageId: MESSAGE, delta: 1 });
    const memory = event('hearth.memory.v1.MemoryCreated', 'memory', { memoryId: 'm2' });

    // when
    const trail = buildTurnTrail(turn, [received, routed, completed, relationship, memory]);

    // then
    expect(trail).toEqual({
      message_id: MESSAGE,
      user_id: 'u1',
      conversation_id: 'c1',
      packet: received.payload,
      routing: routed.payload,
      retrieval: { memoryReadPolicy: 'FULL', status: 'ok' },
      surfaced_memory_ids: ['m1'],
      plan: { ackStyle: 'brief' },
      gates: [gate],
      llm: { final: exchange, exchanges: [exchange] },
      outcome: 'draft',
      relationship: relationship.payload,
      writebacks: [{ type: 'hearth.memory.v1.MemoryCreated', event_id: memory.event_id, service: 'memory' }],
      events: [received, routed, completed, relationship, memory],
    });
  });

  it('gives the empty value of each part protobuf JSON left out', () => {
    const completed = event(Events.TurnCompleted.name, 'orchestrator', { messageId: MESSAGE });

    const trail = buildTurnTrail(turn, [completed]);

    expect(trail).toMatchObject({ retrieval: null, surfaced_memory_ids: [], plan: null, gates: [], llm: { final: null, exchanges: [] }, outcome: null });
  });

  it('reads a user-state refusal as the refusal outcome, with no LLM record', () => {
    const refused = event(Events.ChatRefused.name, 'orchestrator', { messageId: MESSAGE, text: 'finish onboarding first' });

    const trail = buildTurnTrail(turn, [refused]);

    expect(trail).toMatchObject({ outcome: REFUSED_OUTCOME, llm: { final: null, exchanges: [] }, writebacks: [] });
  });

  it('leaves the later stages empty while the turn is open', () => {
    const received = event(Events.TurnReceived.name, 'ingress', { messageId: MESSAGE });

    const trail = buildTurnTrail(turn, [received]);

    expect(trail).toMatchObject({ packet: received.payload, routing: null, outcome: null, relationship: null, writebacks: [], events: [received] });
  });
});

describe('auditEventOf', () => {
  const at = new Date('2026-11-22T10:00:00.000Z');
  function stored(over: Partial<StoredEvent>): StoredEvent {
    return {
      id: 'e1',
      type: Events.TurnReceived.name,
      userId: 'u1',
      occurredAt: at,
      causationId: '',
      correlationId: MESSAGE,
      service: 'ingress',
      payload: Events.TurnReceived.encode(ingress.TurnReceived.fromPartial({ messageId: MESSAGE, text: 'my secret' })),
      erased: false,
      ...over,
    } as StoredEvent;
  }

  it('shows a readable event with its payload as protobuf JSON, erased false', () => {
    expect(auditEventOf(stored({}), 'ingress')).toEqual({
      type: Events.TurnReceived.name,
      event_id: 'e1',
      occurred_at: at.toISOString(),
      service: 'ingress',
      causation_id: '',
      correlation_id: MESSAGE,
      payload: expect.objectContaining({ messageId: MESSAGE, text: 'my secret' }),
      erased: false,
    });
  });

  it('shows an erased event as its type, ids and times only, never decoding the payload', () => {
    // given: bytes that are no TurnReceived (what is left of an erased payload)
    const e = stored({ erased: true, payload: new Uint8Array([0xff, 0xff, 0xff]) });

    // when
    const shown = auditEventOf(e, 'router');

    // then
    expect(shown).toEqual({
      type: Events.TurnReceived.name,
      event_id: 'e1',
      occurred_at: at.toISOString(),
      service: 'ingress',
      causation_id: '',
      correlation_id: MESSAGE,
      payload: null,
      erased: true,
    });
  });
});

describe('withoutForgottenValues', () => {
  const ev = (type: string, payload: unknown) => ({ type, event_id: type, occurred_at: '2026-11-25T00:00:00.000Z', service: 'memory', causation_id: '', correlation_id: '', payload, erased: false });

  it('hides the value (and stated time) of an invalidated memory wherever a payload names it, and nothing else', () => {
    const events = [
      ev('hearth.memory.v1.MemoryRecorded', {
        memoryId: 'm1',
        memoryKey: 'pref:food:sushi',
        memoryValue: 'like|sushi',
        embedding: [0.1],
        embeddingText: 'sushi',
        occurredOn: '2026-05-01',
        occurredPrecision: 'month',
        occurredText: 'since last may',
      }),
      ev('hearth.memory.v1.MemoryRecorded', { memoryId: 'm2', memoryKey: 'fact:current_city', memoryValue: 'seoul' }),
      ev('hearth.orchestrator.v1.TurnCompleted', { retrieved: [{ memoryId: 'm1', memoryValue: 'like|sushi' }, { memoryId: 'm2', memoryValue: 'seoul' }] }),
      ev('hearth.memory.v1.TurnMemoryWritten', { candidates: [{ memoryId: 'm1', memoryKey: 'pref:food:sushi', memoryValue: 'like|sushi' }] }),
      ev('hearth.memory.v1.MemoriesInvalidated', { memoryIds: ['m1'], reason: 'delete_api' }),
    ];
    const out = withoutForgottenValues(events);
    expect(JSON.stringify(out)).not.toContain('like|sushi');
    expect(JSON.stringify(out)).not.toMatch(/last may|2026-05-01/);
    expect(out[0]!.payload).toEqual({ memoryId: 'm1', memoryKey: 'pref:food:sushi', memoryValue: null, valueForgotten: true });
    expect(out[1]).toEqual(events[1]);
    expect((out[2]!.payload as { retrieved: unknown[] }).retrieved[1]).toEqual({ memoryId: 'm2', memoryValue: 'seoul' });
    expect(withoutForgottenValues(events.slice(0, 4))).toEqual(events.slice(0, 4));
  });
});
