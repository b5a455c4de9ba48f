import type { Bus } from '@hearth/bus';
import { retention } from '@hearth/proto';

/** Request/reply name of the retention state query (served by the retention service). */
export const GET_RETENTION = 'GetRetention';

/** What ingress asks of retention for GET /v1/admin/users/{user_id}/retention. */
export interface RetentionQueries {
  get(userId: string): Promise<retention.GetRetentionResponse>;
}

export function createRetentionQueries(bus: Bus, timeoutMs = 5_000): RetentionQueries {
  return {
    async get(userId) {
      const reply = await bus.query('retention', GET_RETENTION, retention.GetRetentionRequest.encode({ userId }).finish(), timeoutMs);
      return retention.GetRetentionResponse.decode(reply);
    },
  };
}
