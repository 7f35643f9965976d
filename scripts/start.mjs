/**
 * `npm start` (node scripts/start.mjs main) and `npm run cli -- …` (node scripts/start.mjs cli …): rebuilds dist/ if a
 * source changed since the last build (scripts/build.mjs), then runs the compiled entry point in this same process, so
 * that signals sent to npm reach the service and an edited source is never run stale.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildIfStale, entryFile } from './build.mjs';

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
// Stack traces name the TypeScript sources (dist/*.js.map).
process.setSourceMapsEnabled(true);
const entry = entryFile(name);
// The entry point reads its arguments from process.argv.slice(2), as if started as `node dist/<name>.js …`.
process.argv.splice(1, 2, path.resolve(entry));
await import(pathToFileURL(entry).href);
