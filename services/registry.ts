import type { ServiceDefinition } from '@hearth/host';
import { service as beliefGraph } from './belief-graph/src/index.js';
import { service as ingress } from './ingress/src/index.js';
import { service as memory } from './memory/src/index.js';
import { service as orchestrator } from './orchestrator/src/index.js';
import { service as retention } from './retention/src/index.js';
import { service as router } from './router/src/index.js';
import { service as trust } from './trust/src/index.js';
import { service as uncertainty } from './uncertainty/src/index.js';

/** Every Hearth service, in the order of SERVICE_NAMES (the all-in-one process runs these). */
export const ALL_SERVICES: ServiceDefinition[] = [
  ingress,
  router,
  orchestrator,
  memory,
  beliefGraph,
  uncertainty,
  trust,
  retention,
];
