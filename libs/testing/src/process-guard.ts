import { spawn } from 'node:child_process';
import vm from 'node:vm';

// Under Jest every test file gets its own copy of `process` and `globalThis`:
// 'exit' listeners on the copy never fire and nothing set on it reaches the next
// test file of the same worker. The main context holds the real ones.
const mainGlobal = vm.runInThisContext('globalThis') as typeof globalThis;
const mainProcess = mainGlobal.process;

interface SharedState {
  cleanups: Set<() => void>;
  exitHook: boolean;
  memo: Map<string, Promise<unknown>>;
}

const STATE = Symbol.for('@hearth/testing');

function shared(): SharedState {
  const holder = mainGlobal as unknown as Record<symbol, SharedState | undefined>;
  return (holder[STATE] ??= { cleanups: new Set(), exitHook: false, memo: new Map() });
}

/**
 * Runs `cleanup` (synchronously) if the process exits while it is registered.
 * Returns the function that unregisters it.
 */
export function onProcessExit(cleanup: () => void): () => void {
  const state = shared();
  if (!state.exitHook) {
    state.exitHook = true;
    mainProcess.on('exit', () => {
      for (const fn of state.cleanups) {
        try {
          fn();
        } catch {
          // Best effort: the process is going away.
        }
      }
      state.cleanups.clear();
    });
  }
  state.cleanups.add(cleanup);
  return () => state.cleanups.delete(cleanup);
}

/**
 * Memoizes `create` once per process (per Jest worker, across its test files).
 * A rejected attempt is forgotten, so the next call tries again.
 */
export function memoPerProcess<T>(key: string, create: () => Promise<T>): Promise<T> {
  const { memo } = shared();
  const existing = memo.get(key) as Promise<T> | undefined;
  if (existing) return existing;
  const created = create();
  memo.set(key, created);
  created.catch(() => {
    if (memo.get(key) === created) memo.delete(key);
  });
  return created;
}

/**
 * Starts a detached shell that waits for this process to die (even by SIGKILL,
 * when no 'exit' handler runs), then runs `command` and removes `dir`.
 * Kill the returned pid once the guarded resource is gone.
 */
export function spawnWatchdog(command: readonly string[], dir: string): number | undefined {
  const script =
    'owner=$1; dir=$2; shift 2; ' +
    'while kill -0 "$owner" 2>/dev/null; do sleep 1; done; ' +
    '"$@" >/dev/null 2>&1; rm -rf "$dir"';
  const child = spawn('sh', ['-c', script, 'hearth-testing-watchdog', String(mainProcess.pid), dir, ...command], {
    detached: true,
    stdio: 'ignore',
  });
  child.on('error', () => undefined);
  child.unref();
  return child.pid;
}

/** Signals a pid, ignoring "no such process". */
export function killQuietly(pid: number | undefined, signal: NodeJS.Signals = 'SIGTERM'): void {
  if (pid === undefined) return;
  try {
    mainProcess.kill(pid, signal);
  } catch {
    // Already gone.
  }
}
