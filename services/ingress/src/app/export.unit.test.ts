import type { StoredEvent } from '@hearth/bus';
import { Events } from '@hearth/events';
import { adminAccessedDraft, adminAccessView } from './admin-access.js';
import { exportDocument, exportMessages, type ExportRow } from './export.js';
import { jsonChunks } from './json-stream.js';

const T0 = new Date('2026-11-22T10:00:00.000Z');
const T1 = new Date('2026-11-22T10:00:01.000Z');

function row(over: Partial<ExportRow> = {}): ExportRow {
  return {
    message_id: 'm1',
    source: 'chat',
    text: 'hi there',
    received_at: T0,
    assistant_message_id: 'a1',
    assistant_text: 'hey!',
    surfaced_memory_ids: ['mem1'],
    completed_at: T1,
    refused: false,
    ...over,
  };
}

async function* pagesOf<T>(...pages: T[][]): AsyncGenerator<T[]> {
  for (const p of pages) yield p;
}

describe('exportMessages', () => {
  it('shows a chat turn as the history does: the user message, then the reply', () => {
    expect(exportMessages([row()])).toEqual([
      { message_id: 'm1', role: 'user', source: 'chat', text: 'hi there', created_at: T0.toISOString() },
      { message_id: 'a1', role: 'assistant', source: 'chat', text: 'hey!', created_at: T1.toISOString(), surfaced_memory_ids: ['mem1'] },
    ]);
  });

  it('keeps a refused turn, which the history leaves out, marked refused', () => {
    const messages = exportMessages([row({ refused: true, assistant_text: 'finish onboarding first', surfaced_memory_ids: [] })]);
    expect(messages.map((m) => [m.role, m.text, m.refused])).toEqual([
      ['user', 'hi there', true],
      ['assistant', 'finish onboarding first', true],
    ]);
  });

  it('shows a proactive message as one assistant message, and a reply whose user message is not applied yet alone', () => {
    expect(exportMessages([row({ source: 'retention', text: '', received_at: T1 })]).map((m) => [m.role, m.source])).toEqual([['assistant', 'retention']]);
    expect(exportMessages([row({ received_at: null })]).map((m) => m.role)).toEqual(['assistant']);
  });
});

describe('exportDocument', () => {
  it('writes every part in API.md order, the beliefs, uncertainties and trust as given', async () => {
    // given
    const beliefs = {
      nodes: [
        {
          belief_id: 'b1',
          holder: 'user',
          canonical_text: 'i am a slow reader',
          belief_type: 'CAPABILITY_LIMIT',
          polarity: 'affirm',
          stream: 'identity',
          status: 'surface',
          confidence: 0.5,
          activation: 1,
          core_score: 0.1,
          occurrence_count: 1,
          source_message_ids: ['m1'],
          created_at: T0.toISOString(),
        },
      ],
      conflicts: [],
      challenges: [{ challenge_id: 'c1', belief_id: 'b1', style: 'gentle', message_id: 'm1', created_at: T1.toISOString() }],
    };
    const uncertainties = {
      uncertainties: [
        {
          uncertainty_id: 'x1',
          uncertainty_type: 'contradiction',
          subjects: [
            { kind: 'memory', id: 'mem1' },
            { kind: 'memory', id: 'mem2' },
          ],
          severity: 'critical',
          state: 'open',
          detection_context: 'ingestion',
          temporal_signal: false,
          resolution_strategy: null,
          surfaced_count: 0,
          source_message_ids: ['m1'],
          created_at: T0.toISOString(),
          resolved_at: null,
        },
      ],
      tolerance: 0.5,
    };
    const trust = {
      actors: [
        { actor: 'user', trust: 0.53, updates: 1, updated_at: T1.toISOString() },
        { actor: 'agent', trust: 0.5, updates: 0, updated_at: null },
      ],
      outcomes: [{ outcome_id: 'o1', horizon: '2h', reward: 0.3, components: { coherence: 0.5, confidence: 0, stability: 1, validation: 0 }, evaluated_at: T1.toISOString() }],
      feedback: [{ tag: '+keep', actor: 'user', belief_id: 'b2', weight: 0.7, applied: true, reason: 'counted', created_at: T0.toISOString() }],
    };
    const head = {
      exported_at: T1.toISOString(),
      user: { user_id: 'u1' },
      controls: { proactive_messages_enabled: true },
      relationship: { relationship_stage: 'STRANGER' },
      memories: [{ memory_id: 'mem1' }],
      beliefs,
      uncertainties,
      trust,
      retention: { user_id: 'u1', messages: [] },
    };
    const conversations = pagesOf<unknown>([{ conversation_id: 'c1', messages: exportMessages([row()]) }]);
    const access = adminAccessView({
      ...adminAccessedDraft('u1', { adminId: 'admin1', route: 'GET /v1/admin/users/{user_id}/timeline' }, 'timeline', 'e1', T0),
      erased: false,
    } as StoredEvent);

    // when
    let json = '';
    for await (const c of jsonChunks(exportDocument(head, conversations, pagesOf([access])))) json += c;
    const doc = JSON.parse(json) as Record<string, unknown>;

    // then
    expect(Object.keys(doc)).toEqual([
      'exported_at',
      'user',
      'controls',
      'relationship',
      'conversations',
      'memories',
      'beliefs',
      'uncertainties',
      'trust',
      'retention',
      'admin_access',
    ]);
    expect(doc).toMatchObject(head);
    expect(doc.beliefs).toEqual(beliefs);
    expect(Object.keys(doc.beliefs as object)).toEqual(['nodes', 'conflicts', 'challenges']);
    expect(doc.uncertainties).toEqual(uncertainties);
    // The uncertainty view whole: the tolerance goes with the list (API.md lists no key of its own for it).
    expect(Object.keys(doc.uncertainties as object)).toEqual(['uncertainties', 'tolerance']);
    // The trust view whole, as the admin route shows it.
    expect(doc.trust).toEqual(trust);
    expect(Object.keys(doc.trust as object)).toEqual(['actors', 'outcomes', 'feedback']);
    expect((doc.conversations as { messages: unknown[] }[])[0]!.messages).toHaveLength(2);
    expect(doc.admin_access).toEqual([
      { event_id: 'e1', admin_id: 'admin1', route: 'GET /v1/admin/users/{user_id}/timeline', resource: 'timeline', accessed_at: T0.toISOString() },
    ]);
  });
});

describe('adminAccessedDraft', () => {
  it('is an AdminAccessed on the user, at the given time, with the given (fresh) id', () => {
    const d = adminAccessedDraft('u1', { adminId: 'admin1', route: 'GET /v1/admin/turns/{message_id}' }, 'turn:m1', 'e9', T0);
    expect(d).toMatchObject({ id: 'e9', type: Events.AdminAccessed.name, userId: 'u1', occurredAt: T0, correlationId: 'e9' });
    expect(Events.AdminAccessed.decode(d.payload)).toEqual({ adminId: 'admin1', route: 'GET /v1/admin/turns/{message_id}', resource: 'turn:m1', accessedAt: T0 });
  });
});
