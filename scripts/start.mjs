/**
 * `npm start` (node scripts/start.mjs main) and `npm run cli -- …` (node scripts/start.mjs cli …): rebuilds dist/ if a
 * source changed since the last build (scripts/build.mjs), then runs the compiled entry point in this same process, so
 * that signals sent to npm reach the service and an edited source is never run stale.
 *
 * package.json's scripts `exec` this file: without it npm's script shell (sh -c) sits between npm and this process,
 * and takes the SIGTERM npm hands on to its script with it, leaving the service serving (issue 52.2). npm hands on
 * SIGTERM and SIGINT, not SIGHUP, and nothing outlives a `kill -9` of npm: see stopWithParent.
 */
import fs from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildIfStale, entryFile, OUT_DIR } from './build.mjs';

/**
 * Stack traces name the TypeScript sources: a frame in dist/ is mapped through its dist/*.js.map, read when a stack goes
 * through that file and held only weakly, so that the collector takes it back once stacks stop asking (a parsed map
 * of the service's largest chunk takes 7 MB; express-rate-limit reads a stack at start). Node's own source maps
 * (--enable-source-maps) would parse and keep the map of every module loaded, node_modules' too (typeorm's,
 * libphonenumber-js's…): some 15 MiB of the service's memory at rest.
 */
function mapStackTracesToSources() {
  /** dist file -> its map (weakly), or null when it has none. */
  const maps = new Map();
  const mapOf = (file) => {
    const known = maps.get(file);
    if (known === null) return null;
    let map = known?.deref();
    if (!map) {
      try {
        map = new SourceMap(JSON.parse(fs.readFileSync(`${file}.map`, 'utf8')));
      } catch { /* no map: the frame stays as it is */ }
      maps.set(file, map ? new WeakRef(map) : null);
    }
    return map ?? null;
  };
  const distUrl = pathToFileURL(OUT_DIR).href;
  const frame = (site) => {
    const text = site.toString();
    const url = site.getFileName();
    if (!url?.startsWith(distUrl)) return text;
    const file = fileURLToPath(url);
    const entry = mapOf(file)?.findEntry(site.getLineNumber() - 1, site.getColumnNumber() - 1);
    if (!entry?.originalSource) return text;
    const source = path.resolve(path.dirname(file), entry.originalSource);
    return text.replace(`${url}:${site.getLineNumber()}:${site.getColumnNumber()}`, `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`);
  };
  Error.prepareStackTrace = (error, sites) => [Error.prototype.toString.call(error), ...sites.map((s) => `    at ${frame(s)}`)].join('\n');
}

/** How often a process started by npm looks whether npm is still there. */
const PARENT_POLL_MS = 500;

/**
 * Started by npm, this process stops with npm: once its parent is gone (it has been handed to init or a subreaper), it
 * tells itself SIGHUP, once, and the service drains and exits as for any stop signal (src/main.ts). Started any other
 * way (a process manager, `nohup`), it keeps running whatever its parent does.
 */
function stopWithParent() {
  if (!process.env.npm_lifecycle_event) return;
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    process.kill(process.pid, 'SIGHUP');
  }, PARENT_POLL_MS).unref();
}

const name = process.argv[2];
if (name !== 'main' && name !== 'cli') {
  process.stderr.write('usage: node scripts/start.mjs main|cli [ARGUMENTS…]\n');
  process.exit(2);
}
try {
  await buildIfStale();
} catch {
  process.exit(1); // esbuild has printed what does not compile
}
mapStackTracesToSources();
stopWithParent();
const entry = entryFile(name);
// The entry point reads its arguments from process.argv.slice(2), as if started as `node dist/<name>.js …`.
process.argv.splice(1, 2, path.resolve(entry));
await import(pathToFileURL(entry).href);
