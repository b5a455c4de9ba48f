import type { ServiceDefinition } from '@hearth/host';

/** The belief-graph service: a placeholder until its handlers, projections and queries exist. */
export const service: ServiceDefinition = {
  name: 'belief-graph',
  migrations: {},
  projections: [],
  async create() {
    return { start: async () => [] };
  },
};
