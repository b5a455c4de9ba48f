import { accessSync, constants, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** First executable `name` in `dirs`, then on PATH; undefined when none. */
export function findExecutable(name: string, dirs: readonly string[], pathEnv: string | undefined): string | undefined {
  const onPath = (pathEnv ?? '').split(delimiter).filter(Boolean);
  for (const dir of [...dirs, ...onPath]) {
    const candidate = join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/** `/usr/lib/postgresql/<N>/bin` directories, newest major first. */
export function postgresBinDirs(): string[] {
  const root = '/usr/lib/postgresql';
  let versions: string[];
  try {
    versions = readdirSync(root);
  } catch {
    return [];
  }
  return versions
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a))
    .map((v) => join(root, v, 'bin'));
}
