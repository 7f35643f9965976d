#!/usr/bin/env node
/**
 * `contact-validator COMMAND …`, package.json's `bin`: the command line as `npm run -s cli -- COMMAND …` runs it
 * (scripts/start.mjs: rebuilt first if a source changed, then the compiled dist/cli.js in this process), without npm's
 * own start-up, which is most of a command's time through `npm run` (docs/cli.md). On PATH after `npm link` in the
 * checkout, in node_modules/.bin where the package is a dependency; `npx contact-validator` finds it too, through npm.
 */
process.argv.splice(2, 0, 'cli');
await import('../scripts/start.mjs');
