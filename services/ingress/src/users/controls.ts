import { TOPIC_IDS } from '@hearth/text';
import { z } from 'zod';

/** The user's controls (turn-pipeline §2.7), as the API shows them. */
export interface ControlsValue {
  proactive_messages_enabled: boolean;
  /** ISO timestamp, or null when not muted. */
  mute_until: string | null;
  suppressed_topics: string[];
}

/** Before onboarding there are no controls yet: this is what applies. */
export const DEFAULT_CONTROLS: ControlsValue = { proactive_messages_enabled: false, mute_until: null, suppressed_topics: [] };

/** PATCH /v1/me/controls: any of the three; TopicIDs only (API.md). */
export const controlsPatchSchema = z
  .strictObject({
    proactive_messages_enabled: z.boolean().optional(),
    mute_until: z.iso
      .datetime({ offset: true, message: 'must be an ISO 8601 timestamp, or null to unmute' })
      .nullable()
      .optional()
      .meta({ description: 'null unmutes.' }),
    suppressed_topics: z
      .array(z.enum(TOPIC_IDS, { message: 'must be a TopicID (turn-pipeline §2.8)' }))
      .max(TOPIC_IDS.length)
      .optional(),
  })
  .refine((p) => Object.keys(p).length > 0, { message: 'name at least one of proactive_messages_enabled, mute_until, suppressed_topics' });

export type ControlsPatch = z.output<typeof controlsPatchSchema>;

/** The controls after a PATCH: fields it names replace, others stay; topics deduplicated and sorted. */
export function applyControlsPatch(current: ControlsValue, patch: ControlsPatch): ControlsValue {
  return {
    proactive_messages_enabled: patch.proactive_messages_enabled ?? current.proactive_messages_enabled,
    mute_until: patch.mute_until === undefined ? current.mute_until : patch.mute_until === null ? null : new Date(patch.mute_until).toISOString(),
    suppressed_topics: patch.suppressed_topics === undefined ? current.suppressed_topics : [...new Set(patch.suppressed_topics)].sort(),
  };
}

/** §12.4 "don't bring this topic up again": the topics join; null when nothing is new. */
export function withSuppressedTopics(current: ControlsValue, topics: readonly string[]): ControlsValue | null {
  const valid: readonly string[] = TOPIC_IDS;
  const added = topics.filter((t) => valid.includes(t) && !current.suppressed_topics.includes(t));
  if (added.length === 0) return null;
  return { ...current, suppressed_topics: [...new Set([...current.suppressed_topics, ...added])].sort() };
}

/** Same controls? (A PATCH that changes nothing appends nothing.) */
export function sameControls(a: ControlsValue, b: ControlsValue): boolean {
  return (
    a.proactive_messages_enabled === b.proactive_messages_enabled &&
    a.mute_until === b.mute_until &&
    a.suppressed_topics.length === b.suppressed_topics.length &&
    a.suppressed_topics.every((t, i) => b.suppressed_topics[i] === t)
  );
}

/** The ControlsUpdated payload of a controls value. */
export function controlsToEvent(c: ControlsValue, via: 'api' | 'correction', requestId: string) {
  return {
    proactiveMessagesEnabled: c.proactive_messages_enabled,
    muteUntil: c.mute_until === null ? undefined : new Date(c.mute_until),
    suppressedTopics: c.suppressed_topics,
    via,
    requestId,
  };
}
