/**
 * Writes the client libraries' model types from the service's OpenAPI description, the document GET /v1/openapi.json
 * serves, built here in-process by the same function (no server needed):
 *
 *   npm run clients:generate
 *
 * TypeScript, Python, Go and Java each get their records and vocabularies from components/schemas; the hand-written
 * code around them is the transport and the ergonomics. test/openapi/client-models.test.ts fails when the committed
 * files differ from what the current document gives. Why a small emitter rather than openapi-generator & co.: see
 * clients/README.md.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from '../src/http/openapi/document.js';
import { emitGo } from './codegen/emit-go.js';
import { emitGoResources } from './codegen/emit-go-resources.js';
import { emitJava } from './codegen/emit-java.js';
import { emitJavaResources } from './codegen/emit-java-resources.js';
import { emitPython } from './codegen/emit-python.js';
import { emitPythonResources } from './codegen/emit-python-resources.js';
import { emitTypeScript } from './codegen/emit-typescript.js';
import { emitTypeScriptResources } from './codegen/emit-typescript-resources.js';
import { GENERATED_MARK, readModels } from './codegen/model-ir.js';
import { operationSchemas, readOperations, resourcesOf } from './codegen/operation-ir.js';

export const CLIENTS_DIR = path.dirname(fileURLToPath(import.meta.url));

/** The folders generated files live in, relative to clients/: stale generated files there are removed. */
export const GENERATED_FOLDERS = [
  'typescript/src',
  'python/src/contact_validator',
  'go',
  'java/src/main/java/com/contactvalidator',
];

/** Every generated file, by its path relative to clients/. */
export function generateModels(document = buildOpenApiDocument()): Map<string, string> {
  const operations = readOperations(document as unknown as Parameters<typeof readOperations>[0]);
  const set = readModels(document as unknown as Parameters<typeof readModels>[0], operationSchemas(operations), resourcesOf(operations));
  const files = new Map<string, string>([
    ['typescript/src/models.ts', emitTypeScript(set)],
    ['python/src/contact_validator/_models.py', emitPython(set)],
    ['go/models.go', emitGo(set)],
  ]);
  for (const [name, content] of emitJava(set)) files.set(`java/src/main/java/com/contactvalidator/${name}`, content);
  for (const [name, content] of emitTypeScriptResources(set, operations)) files.set(name, content);
  for (const [name, content] of emitPythonResources(set, operations)) files.set(name, content);
  for (const [name, content] of emitGoResources(set, operations)) files.set(name, content);
  for (const [name, content] of emitJavaResources(set, operations)) files.set(`java/src/main/java/com/contactvalidator/${name}`, content);
  return files;
}

/** The generated files now under `root` (a clients/ folder), found by their first-line mark. */
export function listGenerated(root: string): string[] {
  return GENERATED_FOLDERS.flatMap((folder) => {
    const dir = path.join(root, folder);
    if (!fs.existsSync(dir)) return [];
    return fs.readdirSync(dir)
      .filter((name) => fs.statSync(path.join(dir, name)).isFile())
      .filter((name) => fs.readFileSync(path.join(dir, name), 'utf8').split('\n', 1)[0].includes(GENERATED_MARK))
      .map((name) => `${folder}/${name}`);
  });
}

/** Writes the files under `root` and removes generated files the document no longer gives. */
export function writeModels(root: string, files = generateModels()): { written: string[]; removed: string[] } {
  const removed = listGenerated(root).filter((file) => !files.has(file));
  for (const file of removed) fs.rmSync(path.join(root, file));
  const written: string[] = [];
  for (const [file, content] of files) {
    const target = path.join(root, file);
    if (fs.existsSync(target) && fs.readFileSync(target, 'utf8') === content) continue;
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, content);
    written.push(file);
  }
  return { written, removed };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { written, removed } = writeModels(CLIENTS_DIR);
  for (const file of written) console.log(`wrote clients/${file}`);
  for (const file of removed) console.log(`removed clients/${file}`);
  if (!written.length && !removed.length) console.log('clients: models up to date');
}
