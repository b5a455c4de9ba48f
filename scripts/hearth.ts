// Runs Hearth services in this process: all eight by default (the local mode),
// or a subset. Configuration comes from the environment (see libs/host config).
import { Command, InvalidArgumentError } from 'commander';
import { SERVICE_NAMES, type ServiceName } from '@hearth/bus';
import { loadHostConfig, runHearth } from '@hearth/host';
import { ALL_SERVICES } from '../services/registry.js';
import { resetLocalData } from './lib/reset.js';

function parseServices(value: string): ServiceName[] {
  const names = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const unknown = names.filter((n) => !(SERVICE_NAMES as readonly string[]).includes(n));
  if (unknown.length > 0) {
    throw new InvalidArgumentError(`unknown service(s) ${unknown.join(', ')}; known: ${SERVICE_NAMES.join(', ')}`);
  }
  if (names.length === 0) throw new InvalidArgumentError('expected at least one service');
  return names as ServiceName[];
}

function parsePort(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('expected a port in 0..65535');
  return n;
}

const program = new Command('hearth')
  .description('Run Hearth services in one process')
  .option('-s, --services <list>', 'comma-separated services to run', parseServices, [...SERVICE_NAMES])
  .option('-p, --port <port>', 'HTTP port (overrides PORT; 0 picks a free one)', parsePort)
  .option('--reset', "first delete the namespace's streams, key buckets and database (dev/test only)", false)
  .parse();

const opts = program.opts<{ services: ServiceName[]; port?: number; reset: boolean }>();
const services = ALL_SERVICES.filter((s) => opts.services.includes(s.name));

try {
  if (opts.reset) {
    const r = await resetLocalData(loadHostConfig());
    process.stdout.write(
      `reset: deleted ${r.streams.length} streams/buckets (${r.streams.join(', ') || 'none'})` +
        (r.pgliteDir ? `, the PGlite directory ${r.pgliteDir}` : `, ${r.schemas.length} schemas (${r.schemas.join(', ') || 'none'})`) +
        '\n',
    );
  }
  const hearth = await runHearth({ services, port: opts.port, installSignalHandlers: true });
  if (services.some((s) => s.name === 'ingress')) {
    // For a person at a terminal: where it is and a first request to try.
    process.stdout.write(
      [
        '',
        `Hearth is up at ${hearth.url} (${services.length} services in this process; API docs at ${hearth.url}/docs).`,
        'Try a first turn:',
        `  TOKEN=$(curl -s -X POST ${hearth.url}/v1/dev/token -H 'content-type: application/json' -d '{}' | sed -E 's/.*"token":"([^"]+)".*/\\1/')`,
        `  curl -s -X POST ${hearth.url}/v1/me -H "authorization: Bearer $TOKEN"`,
        `  curl -s -X PUT ${hearth.url}/v1/me/onboarding -H "authorization: Bearer $TOKEN" -H 'content-type: application/json' \\`,
        `    -d '{"preferred_name":"Mina","age_band":"25-34","country_or_region":"KR","occupation_category":"working","client_timezone":"Asia/Seoul","proactive_messages_enabled":true,"suppressed_topics":[]}'`,
        `  curl -s -X POST ${hearth.url}/v1/conversations/$(node -p 'crypto.randomUUID()')/messages -H "authorization: Bearer $TOKEN" \\`,
        `    -H 'content-type: application/json' -d "{\\"message_id\\":\\"$(node -p 'crypto.randomUUID()')\\",\\"text\\":\\"hi!\\"}"`,
        'Stop with Ctrl-C.',
        '',
      ].join('\n'),
    );
  }
} catch (err) {
  console.error(err);
  process.exit(1);
}
