/**
 * The client libraries' models are generated from the OpenAPI description (clients/generate-models.ts): this fails when
 * the committed files differ from what the current description gives, so a change to an answer's schema cannot ship
 * without its clients. The fix is one command: `npm run clients:generate`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLIENTS_DIR, generateModels, listGenerated, writeModels } from '../../clients/generate-models.js';
import { GENERATED_MARK } from '../../clients/codegen/model-ir.js';
import { buildOpenApiDocument, type OpenApiDocument } from '../../src/http/openapi/document.js';

const REGENERATE = 'the client models drifted from the OpenAPI description: run `npm run clients:generate` and commit';
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'client-models-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** The document, to change a schema in it. */
const editableDocument = () => buildOpenApiDocument() as OpenApiDocument & { components: Record<string, any> };

describe('client models generated from the OpenAPI description', () => {
  it('When the models are regenerated into a temporary folder, then every committed generated file is the same', () => {
    // Arrange / Act
    const { written } = writeModels(scratch);

    // Assert: the same files, with the same content.
    expect(listGenerated(CLIENTS_DIR).sort(), REGENERATE).toEqual(written.sort());
    for (const file of written) {
      const committed = fs.readFileSync(path.join(CLIENTS_DIR, file), 'utf8');
      expect(committed, `${REGENERATE} (clients/${file})`).toBe(fs.readFileSync(path.join(scratch, file), 'utf8'));
    }
  });

  it('When a vocabulary gains a value, then the generated files of all four clients change', () => {
    // Arrange
    const document = editableDocument();
    const before = generateModels(structuredClone(document));
    document.components.schemas.AddressResult.properties.status.enum.push('undeliverable');

    // Act
    const after = generateModels(document);

    // Assert
    const changed = [...after.keys()].filter((file) => after.get(file) !== before.get(file));
    expect(changed.sort()).toEqual([
      'go/models.go',
      'java/src/main/java/com/contactvalidator/AddressStatus.java',
      'python/src/contact_validator/_models.py',
      'typescript/src/models.ts',
    ]);
    expect(after.get('go/models.go')).toContain('AddressUndeliverable AddressStatus = "undeliverable"');
    expect(after.get('java/src/main/java/com/contactvalidator/AddressStatus.java')).toContain('UNDELIVERABLE("undeliverable"),');
  });

  it('When an answer gains a member, then each client carries it with its own spelling and type', () => {
    // Arrange
    const document = editableDocument();
    // The answer to an upload is a batch with more members: both schemas gain it, as the service's would.
    for (const id of ['Batch', 'CreatedBatch']) {
      const { properties } = document.components.schemas[id];
      document.components.schemas[id].properties = Object.fromEntries([
        ...Object.entries(properties).slice(0, 13), ['rows_skipped', { type: ['integer', 'null'], description: 'Rows left out' }],
        ...Object.entries(properties).slice(13),
      ]);
    }

    // Act
    const files = generateModels(document);

    // Assert
    expect(files.get('typescript/src/models.ts')).toContain('  /** Rows left out */\n  rows_skipped?: number | null;');
    expect(files.get('python/src/contact_validator/_models.py')).toContain('    rows_skipped: NotRequired[Optional[int]]\n');
    expect(files.get('go/models.go')).toContain('RowsSkipped *int64 `json:"rows_skipped,omitempty"`');
    expect(files.get('java/src/main/java/com/contactvalidator/Batch.java')).toContain('    Long rowsSkipped');
  });

  it('When the description uses a schema construct the generator does not read, then generation fails and names it', () => {
    // Arrange
    const document = editableDocument();
    document.components.schemas.Credits.properties.charged = { allOf: [{ type: 'integer' }] };

    // Act / Assert
    expect(() => generateModels(document)).toThrow(/Credits\.charged uses a schema construct/);
  });

  it('When a file is generated, then its first line says where it comes from and not to edit it', () => {
    for (const [file, content] of generateModels()) {
      expect(content.split('\n', 1)[0], file).toMatch(new RegExp(`^(//|#) ${GENERATED_MARK.replace(/[().]/g, '\\$&')}$`));
    }
  });
});
