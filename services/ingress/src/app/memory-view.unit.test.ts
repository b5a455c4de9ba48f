import { memory } from '@hearth/proto';
import { memoryView } from './memory-view.js';

const MEM = '00000000-0000-4000-8000-0000000000a1';
const NEWER = '00000000-0000-4000-8000-0000000000a2';
const MSG = '00000000-0000-4000-8000-0000000000f1';

function record(over: Partial<memory.MemoryRecord> = {}): memory.MemoryRecord {
  return memory.MemoryRecord.fromPartial({
    memoryId: MEM,
    type: 'FACT',
    memoryKey: 'fact:pet',
    memoryValue: 'a grey rabbit',
    confidence: 0.75,
    status: 'ACTIVE',
    // The number memory still sends on field 7 (the confidence it stood in for): never shown.
    reliability: 0.75,
    reliabilityState: 'contradicted',
    sourceMessageIds: [MSG],
    createdAt: new Date('2026-11-01T00:00:00Z'),
    lastConfirmedAt: new Date('2026-11-02T00:00:00Z'),
    ...over,
  });
}

describe('memoryView', () => {
  it("shows the memory in API.md's shape, its reliability as the state uncertainty rated", () => {
    expect(memoryView(record(), false)).toEqual({
      memory_id: MEM,
      type: 'FACT',
      memory_key: 'fact:pet',
      memory_value: 'a grey rabbit',
      confidence: 0.75,
      status: 'ACTIVE',
      reliability: 'contradicted',
      source_message_ids: [MSG],
      created_at: '2026-11-01T00:00:00.000Z',
      last_confirmed_at: '2026-11-02T00:00:00.000Z',
      occurred_on: null,
      occurred_precision: null,
    });
  });

  it.each(['reliable', 'uncertain', 'contradicted', 'superseded'])('passes the state %s through', (state) => {
    expect(memoryView(record({ reliabilityState: state }), false).reliability).toBe(state);
  });

  it('shows a memory uncertainty never rated (no state) as reliable, the default, never as the old number', () => {
    const view = memoryView(record({ reliabilityState: '', reliability: 0.6 }), false);

    expect(view.reliability).toBe('reliable');
  });

  it('keeps the reliability state across the wire, and the default for a record of before issue 17', () => {
    const wire = (r: memory.MemoryRecord) => memory.MemoryRecord.decode(memory.MemoryRecord.encode(r).finish());

    expect(memoryView(wire(record({ reliabilityState: 'superseded' })), false).reliability).toBe('superseded');
    expect(memoryView(wire(record({ reliabilityState: '' })), false).reliability).toBe('reliable');
  });

  it('adds superseded_by with all, null for none; a forgotten value is null', () => {
    expect(memoryView(record({ status: 'SUPERSEDED', supersededBy: NEWER }), true).superseded_by).toBe(NEWER);
    expect(memoryView(record(), true).superseded_by).toBeNull();
    expect(memoryView(record(), false)).not.toHaveProperty('superseded_by');
    expect(memoryView(record({ status: 'INVALID', memoryValue: '' }), true).memory_value).toBeNull();
  });
});
