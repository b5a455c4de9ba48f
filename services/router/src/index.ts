import type { ServiceDefinition } from '@hearth/host';
import { startReactor } from '@hearth/store';
import { createRouteTurnReactor } from './handlers/route-turn.js';

/** The router: a pure routing decision per turn (turn-pipeline §5–§6). */
export const service: ServiceDefinition = {
  name: 'router',
  migrations: {},
  projections: [],
  async create(ctx) {
    const reactor = createRouteTurnReactor(ctx.bus);
    return {
      start: () => startReactor(ctx.bus, ctx.db, 'router', reactor),
    };
  },
};

export { reRoute, turnRoutedOf, type FieldChange, type RoutedInput } from './routing/audit.js';
export type { RouteOptions } from './routing/route.js';
