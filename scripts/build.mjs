/**
 * The compiled start: esbuild bundles src/main.ts (`npm start`) and src/cli.ts (`npm run cli`) with everything they
 * import from src/, connectors/ and migrations/ into dist/ (ES modules for Node 20, split so that a CLI command loads
 * only the modules it runs). Packages stay in node_modules (`packages: 'external'`: better-sqlite3 is native, typeorm
 * loads its drivers by name), except JSON files of packages, which are inlined (Node would want import attributes).
 *
 * Code that finds its files next to itself (`new URL('./data/', import.meta.url)`) keeps finding them in src/: each
 * module's `import.meta.url` is rewritten to its source file's URL, relative to the bundle, so a moved checkout works.
 *
 *     node scripts/build.mjs              build (postinstall, the test suite's global setup)
 *     node scripts/build.mjs --if-stale   build only if a source the last build read has changed since
 *
 * `scripts/start.mjs` (npm start, npm run cli) calls `buildIfStale` in process before it runs the entry point.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = path.resolve(fileURLToPath(import.meta.url), '../..');
export const OUT_DIR = path.join(ROOT, 'dist');
const ENTRY_POINTS = { main: 'src/main.ts', cli: 'src/cli.ts' };
/** What the last build read (esbuild's metafile inputs) and when it started: `isStale` compares against it. */
const INPUTS_FILE = path.join(OUT_DIR, 'inputs.json');
/** How long a chunk no build wrote stays in dist/. */
const OLD_CHUNK_MS = 10 * 60_000;
/** Files that shape the output besides the sources it read. */
const BUILD_FILES = ['scripts/build.mjs', 'tsconfig.json', 'package.json'];

/** The compiled entry point of `name` (main or cli). */
export function entryFile(name) {
  return path.join(OUT_DIR, `${name}.js`);
}

/** Rewrites `import.meta.url` in the project's own modules to the URL of their source file (see above). */
const sourceUrls = {
  name: 'source-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.[cm]?ts$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const source = await fs.promises.readFile(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      const relative = path.relative(OUT_DIR, args.path).split(path.sep).join('/');
      const url = `new URL(${JSON.stringify(relative)}, import.meta.url).href`;
      return { contents: source.replaceAll('import.meta.url', url), loader: 'ts' };
    });
  },
};

/** Bundles the JSON files that modules import from packages (`libphonenumber-js/metadata.max.json`). */
const packageJson = {
  name: 'package-json-inline',
  setup(build) {
    build.onResolve({ filter: /^[^./].*\.json$/ }, (args) => ({
      path: fileURLToPath(import.meta.resolve(args.path, pathToFileURL(args.importer).href)),
    }));
  },
};

/** Builds dist/ and records its inputs. Throws (with esbuild's messages printed) when the sources do not compile. */
export async function build() {
  const esbuild = await import('esbuild');
  const startedAt = Date.now();
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: Object.entries(ENTRY_POINTS).map(([out, entry]) => ({ in: entry, out })),
    outdir: OUT_DIR,
    entryNames: '[name]',
    chunkNames: 'chunk-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    // Stack traces need the positions, not the sources (they are in src/): a running service keeps every map it loads.
    sourcesContent: false,
    metafile: true,
    write: false,
    logLevel: 'error',
    plugins: [sourceUrls, packageJson],
  });
  fs.mkdirSync(OUT_DIR, { recursive: true });
  // Each file is written whole under a temporary name and renamed (a process starting meanwhile reads an old or a new
  // file, never half of one); chunks first, the entry points last. Chunks are named by their content: chunks of
  // earlier builds go once they are old enough that no build running beside this one can still point at them.
  const written = new Set(result.outputFiles.map((f) => f.path));
  const isEntry = (file) => Object.keys(ENTRY_POINTS).some((name) => file.startsWith(entryFile(name)));
  for (const file of [...result.outputFiles].sort((a, b) => Number(isEntry(a.path)) - Number(isEntry(b.path)))) {
    const temporary = `${file.path}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, file.contents);
    fs.renameSync(temporary, file.path);
  }
  for (const name of fs.readdirSync(OUT_DIR)) {
    const file = path.join(OUT_DIR, name);
    if (!name.startsWith('chunk-') || written.has(file)) continue;
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (stat && stat.mtimeMs < startedAt - OLD_CHUNK_MS) fs.rmSync(file, { force: true });
  }
  const inputs = [...Object.keys(result.metafile.inputs).filter((f) => !f.includes('node_modules/')), ...BUILD_FILES];
  fs.writeFileSync(INPUTS_FILE, `${JSON.stringify({ startedAt, inputs })}\n`);
}

/** True when dist/ lacks an entry point, or a file the last build read was changed or removed since it started. */
export function isStale() {
  let recorded;
  try {
    recorded = JSON.parse(fs.readFileSync(INPUTS_FILE, 'utf8'));
  } catch {
    return true;
  }
  if (Object.keys(ENTRY_POINTS).some((name) => !fs.existsSync(entryFile(name)))) return true;
  return recorded.inputs.some((input) => {
    const stat = fs.statSync(path.join(ROOT, input), { throwIfNoEntry: false });
    return !stat || stat.mtimeMs >= recorded.startedAt;
  });
}

export async function buildIfStale() {
  if (isStale()) await build();
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    await (process.argv.includes('--if-stale') ? buildIfStale() : build());
  } catch {
    // esbuild has printed what does not compile.
    process.exitCode = 1;
  }
}
