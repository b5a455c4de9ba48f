import type { ServiceDefinition } from '@hearth/host';

/** The retention service: a placeholder until its handlers, projections and queries exist. */
export const service: ServiceDefinition = {
  name: 'retention',
  migrations: {},
  projections: [],
  async create() {
    return { start: async () => [] };
  },
};

/** The retention service's query client, for other services. */
export { createRetentionQueries, GET_RETENTION, type RetentionQueries } from './queries/client.js';
