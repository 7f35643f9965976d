/** Writes connectors/salesforce/metadata/ from the connector's fields table (connectors/salesforce/fields.ts). */
import fs from 'node:fs';
import path from 'node:path';
import { metadataFiles } from '../connectors/salesforce/metadata-files.js';

const root = path.resolve(import.meta.dirname, '../connectors/salesforce/metadata');
for (const [file, text] of metadataFiles()) {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), text);
}
console.log(JSON.stringify({ written: metadataFiles().size, folder: path.relative(process.cwd(), root) }));
