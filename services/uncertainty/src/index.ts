import type { ServiceDefinition } from '@hearth/host';

/** The uncertainty service: a placeholder until its handlers, projections and queries exist. */
export const service: ServiceDefinition = {
  name: 'uncertainty',
  migrations: {},
  projections: [],
  async create() {
    return { start: async () => [] };
  },
};
