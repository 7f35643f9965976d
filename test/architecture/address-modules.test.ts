/**
 * The address engine's files as a reader meets them (src/validation/address/README.md): no import cycle, so each file
 * can be read knowing only what it imports, and none of more than 800 lines. The imports are read with TypeScript's
 * own pre-processor, so type-only imports count too.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const ENGINE = 'src/validation/address';

/** Each file of the engine with the files of the engine it imports (paths from the root, `.ts`). */
function importGraph(files: { file: string; text: string }[]): Map<string, string[]> {
  const known = new Set(files.map((f) => f.file));
  return new Map(files.map(({ file, text }) => [
    file,
    ts.preProcessFile(text, true, true).importedFiles
      .map((i) => i.fileName)
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => path.posix.join(path.posix.dirname(file), spec).replace(/\.js$/, '.ts'))
      .filter((target) => known.has(target)),
  ]));
}

/** Every cycle found by a depth-first walk, each as its files in import order, starting from its smallest name. */
function cyclesOf(graph: Map<string, string[]>): string[][] {
  const cycles = new Map<string, string[]>();
  const done = new Set<string>();
  const walk = (file: string, trail: string[]) => {
    const at = trail.indexOf(file);
    if (at >= 0) {
      const cycle = trail.slice(at);
      const first = cycle.indexOf([...cycle].sort()[0]);
      const rotated = [...cycle.slice(first), ...cycle.slice(0, first)];
      cycles.set(rotated.join(' > '), rotated);
      return;
    }
    if (done.has(file)) return;
    for (const next of graph.get(file) ?? []) walk(next, [...trail, file]);
    done.add(file);
  };
  for (const file of graph.keys()) walk(file, []);
  return [...cycles.values()];
}

function engineFiles(): { file: string; text: string }[] {
  return fs.readdirSync(path.join(root, ENGINE), { recursive: true, encoding: 'utf8' })
    .map((f) => path.posix.join(ENGINE, f.split(path.sep).join('/')))
    .filter((f) => f.endsWith('.ts'))
    .map((file) => ({ file, text: fs.readFileSync(path.join(root, file), 'utf8') }));
}

describe('the address engine as files', () => {
  it('When the imports of the engine are read, then no file imports itself through others', () => {
    const graph = importGraph(engineFiles());

    expect(graph.size).toBeGreaterThan(30);
    expect(cyclesOf(graph)).toEqual([]);
  });

  it('When two files import each other through a third, then the check names that cycle', () => {
    const graph = importGraph([
      { file: `${ENGINE}/a.ts`, text: "import { b } from './n/b.js';" },
      { file: `${ENGINE}/n/b.ts`, text: "import type { C } from './c.js';" },
      { file: `${ENGINE}/n/c.ts`, text: "export { a } from '../a.js';\nimport fs from 'node:fs';" },
    ]);

    expect(cyclesOf(graph)).toEqual([[`${ENGINE}/a.ts`, `${ENGINE}/n/b.ts`, `${ENGINE}/n/c.ts`]]);
  });

  it('When the engine\'s files are counted, then none is longer than 800 lines', () => {
    const long = engineFiles().filter(({ text }) => text.split('\n').length > 800).map(({ file }) => file);

    expect(long).toEqual([]);
  });
});
