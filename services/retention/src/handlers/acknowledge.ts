import { appendDecided, draft, payloadOf, type Bus, type EventDraft, type StoredEvent } from '@hearth/bus';
import { deriveId, Events } from '@hearth/events';
import type { Reactor } from '@hearth/store';
import { counter, type Logger } from '@hearth/telemetry';
import type { Kysely } from 'kysely';
import type { RetentionDb } from '../db.js';
import { attributeAppOpen, repliedTo } from '../domain/eligibility.js';
import type { RetentionRecord } from '../domain/types.js';
import { caughtUp, recordsSettled, undeliveredBy } from './wait.js';

export interface AcknowledgeDeps {
  bus: Bus;
  db: Kysely<RetentionDb>;
  logger?: Logger;
}

const acknowledgements = counter('hearth_retention_acknowledged_total', 'Proactive messages acknowledged within 24 h, by how (reply, app_open_notification, app_open_single)');
const appOpens = counter('hearth_retention_app_opens_total', 'App opens by the §14.2 C rule that attributed them (notification, single, none)');

/** One acknowledgement per message, ever: the id is the message's. */
export function acknowledgementId(retentionId: string): string {
  return deriveId('retention', 'acknowledged', retentionId);
}

function acknowledge(r: RetentionRecord, via: string, cause: StoredEvent, causeId: string): EventDraft {
  return draft(
    Events.RetentionAcknowledged,
    { retentionId: r.retentionId, via, causeId, acknowledgedAt: cause.occurredAt },
    { id: acknowledgementId(r.retentionId), userId: cause.userId, causationId: cause.id, correlationId: cause.correlationId || r.retentionId, occurredAt: cause.occurredAt },
  );
}

/**
 * §14.2 A–C: a user message in the conversation of a proactive message within
 * 24 h of its delivery acknowledges it; an app open acknowledges the message
 * its notification id names, else the single one delivered in the last 24 h,
 * else none (AppOpenAttributed records which rule applied).
 */
export function createAcknowledgeReactor(deps: AcknowledgeDeps): Reactor {
  const { bus, db } = deps;
  return {
    name: 'acknowledge',
    sources: ['ingress'],
    types: [Events.TurnReceived.name, Events.AppOpened.name],
    async react(event) {
      if (event.type === Events.TurnReceived.name) {
        const t = payloadOf(event, Events.TurnReceived);
        if (t.source === 'retention' || t.userState === 'CREATED') return;
        const appended = await appendDecided(bus, 'retention', event.userId, async (last) => {
          await caughtUp(db, last);
          const records = await recordsSettled(db, event.userId, undeliveredBy(event.occurredAt));
          return repliedTo(records, t.conversationId, event.occurredAt).map((r) => acknowledge(r, 'reply', event, t.messageId));
        });
        const fresh = appended.filter((r) => !r.duplicate).length;
        if (fresh > 0) acknowledgements.add(fresh, { via: 'reply' });
        return;
      }
      if (event.type === Events.AppOpened.name) {
        const a = payloadOf(event, Events.AppOpened);
        const attributedId = deriveId('retention', 'app-open', event.id);
        interface Decided {
          rule: string;
          retentionId: string | null;
          acknowledged: string | null;
        }
        const decided: { last: Decided | null } = { last: null };
        const appended = await appendDecided(bus, 'retention', event.userId, async (last) => {
          if (last?.id === attributedId) return [];
          await caughtUp(db, last);
          // Ingress checked that a named notification exists, so its delivery is on its way here.
          const named = (records: RetentionRecord[]) => a.openedNotificationId !== '' && !records.some((r) => r.notificationId === a.openedNotificationId && r.deliveredAt !== null);
          const records = await recordsSettled(db, event.userId, (rs) => undeliveredBy(event.occurredAt)(rs) || named(rs));
          const { rule, record } = attributeAppOpen(records, a.openedNotificationId, event.occurredAt);
          const drafts: EventDraft[] = [];
          if (record && record.outcome === '') drafts.push(acknowledge(record, rule === 'notification' ? 'app_open_notification' : 'app_open_single', event, a.appOpenId));
          drafts.push(
            draft(
              Events.AppOpenAttributed,
              { appOpenId: a.appOpenId, openedNotificationId: a.openedNotificationId, retentionId: record?.retentionId ?? '', rule },
              { id: attributedId, userId: event.userId, causationId: event.id, correlationId: event.correlationId || a.appOpenId, occurredAt: event.occurredAt },
            ),
          );
          decided.last = { rule, retentionId: record?.retentionId ?? null, acknowledged: drafts.length > 1 ? drafts[0]!.id : null };
          return drafts;
        });
        const d = decided.last;
        if (d && appended.some((r) => r.id === attributedId && !r.duplicate)) {
          appOpens.add(1, { rule: d.rule });
          if (d.acknowledged && appended.some((r) => r.id === d.acknowledged && !r.duplicate)) {
            acknowledgements.add(1, { via: d.rule === 'notification' ? 'app_open_notification' : 'app_open_single' });
          }
          deps.logger?.info({ userId: event.userId, appOpenId: a.appOpenId, rule: d.rule, retentionId: d.retentionId }, 'app open attributed');
        }
      }
    },
  };
}
