// One process for this service alone (the Kubernetes mode); give each its own PORT.
import { runHearth } from '@hearth/host';
import { service } from './index.js';

await runHearth({ services: [service], installSignalHandlers: true }).catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
