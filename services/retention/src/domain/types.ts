import type { Stage } from '../config.js';

/** What retention knows of a user, from its projection. */
export interface UserSnapshot {
  userId: string;
  /** CREATED | ONBOARDING | ACTIVE */
  userState: string;
  /** IANA zone of the user (onboarding answer, or the latest one a message carried). */
  timezone: string;
  proactiveEnabled: boolean;
  muteUntil: Date | null;
  stage: Stage;
  /** The user's last chat message. */
  lastInteractionAt: Date | null;
  /** The conversation of that message: where a proactive message goes. */
  conversationId: string | null;
  aiFriendId: string;
}

/** One proactive message and what became of it. */
export interface RetentionRecord {
  retentionId: string;
  notificationId: string;
  conversationId: string;
  /** The evaluated hour that planned it; null if only the delivery is known yet. */
  plannedAt: Date | null;
  deliveredAt: Date | null;
  declinedReason: string | null;
  outcome: '' | 'acknowledged' | 'ignored';
  acknowledgedVia: string | null;
  resolvedAt: Date | null;
}
