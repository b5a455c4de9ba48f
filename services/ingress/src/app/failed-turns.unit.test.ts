import type { DeadLetterEntry } from '@hearth/bus';
import { FailedTurns } from './failed-turns.js';

const entry = (over: Partial<DeadLetterEntry> = {}): DeadLetterEntry => ({
  eventId: 'e1',
  type: 'hearth.ingress.v1.TurnReceived',
  userId: 'u1',
  correlationId: 'm1',
  service: 'orchestrator',
  consumer: 'orchestrator-turns-ingress',
  stream: 'HEARTH_INGRESS',
  subject: 'hearth.ingress.v1.u1',
  streamSeq: 7,
  error: 'invalid byte sequence',
  deliveries: 5,
  quarantinedAt: new Date(0),
  redriven: false,
  ...over,
});

describe('FailedTurns', () => {
  it('names the quarantined event of a turn until a redrive lifts it', () => {
    const failed = new FailedTurns();
    failed.add(entry());
    failed.add(entry({ consumer: 'ingress-turns-ingress', service: 'ingress' }));

    expect(failed.failureOf('m1')).toEqual({ eventId: 'e1', service: 'orchestrator' });
    expect(failed.failureOf('m2')).toBeUndefined();
    expect(failed.lift('orchestrator-turns-ingress', 'HEARTH_INGRESS', 7)).toBe('m1');
    expect(failed.failureOf('m1')).toEqual({ eventId: 'e1', service: 'ingress' });
    failed.add(entry({ consumer: 'ingress-turns-ingress', redriven: true }));
    expect(failed.failureOf('m1')).toBeUndefined();
  });

  it('ignores dead letters that belong to no turn', () => {
    const failed = new FailedTurns();
    failed.add(entry({ correlationId: '' }));
    expect(failed.failureOf('')).toBeUndefined();
  });
});
