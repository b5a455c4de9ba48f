// `pnpm deploy:synth`: writes the manifests of scripts/deploy/services.ts into deploy/.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { synthesize } from './manifests.js';
import { renderFile } from './render.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
for (const file of synthesize()) {
  const path = join(repo, file.path);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, renderFile(file));
  console.log(`wrote ${file.path}`);
}
