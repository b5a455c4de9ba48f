import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { build, type Plugin } from 'esbuild';

// The ahead-of-time build of one service: its entry point and the workspace code it
// imports (libs/, its own folder) bundled into dist/main.js, every npm package left
// external for the production node_modules next to it. No TypeScript is compiled at
// start, and the output holds only the code this service runs.

export const REPO = resolve(dirname(new URL(import.meta.url).pathname), '..', '..');

export interface Bundle {
  service: string;
  /** dist/ of the service's package (services/<name>/dist). */
  distDir: string;
  /** The npm packages the bundle imports at run time, by package name. */
  packages: string[];
  /** The services/ folders whose code is in the bundle (its own alone, or the build failed). */
  serviceFolders: string[];
  /** Data files read at run time (`new URL('./x.json', import.meta.url)`), copied beside main.js. */
  assets: string[];
  bytes: number;
  ms: number;
}

/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
export function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

// Bundles workspace packages (@hearth/*) and relative imports; every other bare
// import is an npm package, resolved at run time from the output's node_modules.
const externals: Plugin = {
  name: 'hearth-externals',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@hearth/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

// A module that reads a file beside itself at run time names it with
// `new URL('./file', import.meta.url)`; in the bundle that URL is dist/, so the file
// is copied there (its base name must be unique across the bundle).
const ASSET = /new URL\(\s*'\.\/([^'/]+)'\s*,\s*import\.meta\.url\s*\)/g;

function assetCollector(found: Map<string, string>): Plugin {
  return {
    name: 'hearth-assets',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, (args) => {
        if (args.path.includes('node_modules')) return undefined;
        const text = readFileSync(args.path, 'utf8');
        for (const m of text.matchAll(ASSET)) {
          const file = join(dirname(args.path), m[1]!);
          const prior = found.get(m[1]!);
          if (prior && prior !== file) throw new Error(`two run-time files named ${m[1]}: ${relative(REPO, prior)} and ${relative(REPO, file)}`);
          found.set(m[1]!, file);
        }
        return { contents: text, loader: 'ts' };
      });
    },
  };
}

export interface BundleOptions {
  /** Where main.js goes (default: the service's own dist/). */
  distDir?: string;
  /**
   * Modules replaced by others, by absolute path: a build of another version of a
   * contract (the rolling-upgrade test's old build, from an older proto).
   */
  replace?: ReadonlyMap<string, string>;
}

function replacer(replace: ReadonlyMap<string, string>): Plugin {
  return {
    name: 'hearth-replace',
    setup(b) {
      b.onResolve({ filter: /^\.{1,2}\// }, (args) => {
        const target = resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts'));
        const by = replace.get(target);
        return by ? { path: by } : undefined;
      });
    },
  };
}

export async function bundleService(service: string, opts: BundleOptions = {}): Promise<Bundle> {
  const started = performance.now();
  const distDir = opts.distDir ?? join(REPO, 'services', service, 'dist');
  rmSync(distDir, { recursive: true, force: true });
  mkdirSync(distDir, { recursive: true });
  const assets = new Map<string, string>();
  const result = await build({
    entryPoints: [join(REPO, 'services', service, 'src', 'main.ts')],
    outfile: join(distDir, 'main.js'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    // tsconfig.json (decorators, class fields) is read as tsx reads it.
    keepNames: true,
    metafile: true,
    logLevel: 'warning',
    absWorkingDir: REPO,
    plugins: [externals, ...(opts.replace ? [replacer(opts.replace)] : []), assetCollector(assets)],
    // CommonJS npm packages imported from ESM still call require (pino, pg): give them one.
    banner: { js: "import { createRequire as __hearthRequire } from 'node:module';\nconst require = __hearthRequire(import.meta.url);" },
  });
  for (const [name, file] of assets) copyFileSync(file, join(distDir, name));
  const packages = new Set<string>();
  let bytes = 0;
  for (const out of Object.values(result.metafile.outputs)) {
    bytes += out.bytes;
    for (const i of out.imports) if (i.external && !i.path.startsWith('node:')) packages.add(packageOf(i.path));
  }
  const serviceFolders = [...new Set(Object.keys(result.metafile.inputs).filter((p) => p.startsWith('services/')).map((p) => p.split('/')[1]!))].sort();
  return {
    service,
    distDir,
    packages: [...packages].sort(),
    serviceFolders,
    assets: [...assets.keys()].map((a) => basename(a)).sort(),
    bytes,
    ms: performance.now() - started,
  };
}
