import type { ServiceDefinition } from '@hearth/host';

/** The memory service: a placeholder until its handlers, projections and queries exist. */
export const service: ServiceDefinition = {
  name: 'memory',
  migrations: {},
  projections: [],
  async create() {
    return { start: async () => [] };
  },
};
