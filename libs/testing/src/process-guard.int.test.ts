import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { waitFor } from './index.js';
import { canConnect } from './ports.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/hold-servers.ts', import.meta.url));

interface Held {
  natsPort: number;
  natsDir: string;
  pgPort: number;
  pgDir: string;
}

async function holdServers(mode: 'exit' | 'hang') {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, mode], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  const exited = once(child, 'exit');
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const held = await waitFor(async () => (out.includes('\n') ? (JSON.parse(out) as Held) : undefined), {
    what: 'the child to report its servers',
    timeoutMs: 60_000,
  });
  return { child, exited, held };
}

async function gone(h: Held): Promise<boolean> {
  const up = (await canConnect('127.0.0.1', h.natsPort)) || (await canConnect('127.0.0.1', h.pgPort));
  return !up && !existsSync(h.natsDir) && !existsSync(h.pgDir);
}

describe('servers of a test process that goes away', () => {
  test('are stopped and removed by the exit handler when it exits', async () => {
    const { exited, held } = await holdServers('exit');
    await exited;
    expect(await gone(held)).toBe(true);
  });

  test('are stopped and removed by the watchdog when it is SIGKILLed', async () => {
    const { child, exited, held } = await holdServers('hang');
    expect(await canConnect('127.0.0.1', held.natsPort)).toBe(true);
    expect(await canConnect('127.0.0.1', held.pgPort)).toBe(true);
    child.kill('SIGKILL');
    await exited;
    await waitFor(() => gone(held), { what: 'the watchdog to stop both servers and remove their dirs', timeoutMs: 20_000 });
  });
});
