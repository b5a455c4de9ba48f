import type { ServiceDefinition } from '@hearth/host';

/** The trust service: a placeholder until its handlers, projections and queries exist. */
export const service: ServiceDefinition = {
  name: 'trust',
  migrations: {},
  projections: [],
  async create() {
    return { start: async () => [] };
  },
};
