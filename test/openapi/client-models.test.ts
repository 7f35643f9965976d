/**
 * The client libraries' models and resource methods are generated from the OpenAPI description
 * (clients/generate-models.ts): this fails when the committed files differ from what the current description gives, so
 * a change to an answer's schema, or a new operation, cannot ship without its clients. The fix is one command:
 * `npm run clients:generate`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLIENTS_DIR, generateModels, listGenerated, writeModels } from '../../clients/generate-models.js';
import { GENERATED_MARK, LANGUAGES } from '../../clients/codegen/model-ir.js';
import { methodName, pagedList, pagerName, readOperations } from '../../clients/codegen/operation-ir.js';
import { GO_BODY_TYPES } from '../../clients/codegen/emit-go-resources.js';
import { JAVA_BODY_TYPES } from '../../clients/codegen/emit-java-resources.js';
import { buildOpenApiDocument, type OpenApiDocument } from '../../src/http/openapi/document.js';

const REGENERATE = 'the clients drifted from the OpenAPI description: run `npm run clients:generate` and commit';
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'client-models-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** The document, to change a schema in it. */
const editableDocument = () => buildOpenApiDocument() as OpenApiDocument & { components: Record<string, any>; paths: Record<string, any> };

/** The files that carry each language's resource methods. */
const RESOURCE_FILES = {
  ts: ['typescript/src/resources.ts'],
  py: ['python/src/contact_validator/_resources.py'],
  go: ['go/resources.go'],
  java: fs.readdirSync(path.join(CLIENTS_DIR, 'java/src/main/java/com/contactvalidator'))
    .filter((name) => name.endsWith('.java'))
    .map((name) => `java/src/main/java/com/contactvalidator/${name}`),
};

/** A new resource with two operations, as another helper's endpoint declaration would give it. */
function withGadgets(document: ReturnType<typeof editableDocument>) {
  const answer = { description: 'The gadget', content: { 'application/json': { schema: { $ref: '#/components/schemas/Batch' } } } };
  document.paths['/v1/gadgets'] = {
    post: {
      operationId: 'createGadget', security: [{ ApiKey: [] }], summary: 'Create a gadget',
      parameters: [{ name: 'Idempotency-Key', in: 'header', schema: { type: 'string' } }],
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', properties: { label: { type: 'string' } }, required: ['label'] } } } },
      responses: { 201: answer },
    },
  };
  document.paths['/v1/gadgets/{gadget_id}'] = {
    get: {
      operationId: 'getGadget', security: [{ ApiKey: [] }], summary: 'A gadget',
      parameters: [{ name: 'gadget_id', in: 'path', required: true, schema: { type: 'string' } }, { name: 'verbose', in: 'query', schema: { type: 'string', enum: ['true', 'false'] } }],
      responses: { 200: answer },
    },
  };
  return document;
}

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

  it('When the committed clients are read, then each carries a method for every operation of the description', () => {
    // Arrange
    const operations = readOperations(buildOpenApiDocument() as unknown as Parameters<typeof readOperations>[0]);
    expect(operations.length).toBeGreaterThan(20);

    for (const language of LANGUAGES) {
      const text = RESOURCE_FILES[language].map((file) => fs.readFileSync(path.join(CLIENTS_DIR, file), 'utf8')).join('\n');
      for (const op of operations) {
        // Assert: the method is there, with the operation's path.
        const name = methodName(op, language);
        const declared = { ts: `async ${name}(`, py: `def ${name}(`, go: `) ${name}(ctx`, java: ` ${name}(` }[language];
        expect(text, `${REGENERATE}: ${language} has no ${name} for ${op.id}`).toContain(declared);
        expect(text, `${REGENERATE}: ${language} does not call ${op.path}`).toContain(op.path.split('{')[0].replace(/\/$/, ''));
        if (!pagedList(op)) continue;
        // A paged list also has the method that walks every page (`listAll`).
        const pager = pagerName(op, language);
        const walks = { ts: `async *${pager}(`, py: `def ${pager}(`, go: `) ${pager}(ctx`, java: ` ${pager}(` }[language];
        expect(text, `${REGENERATE}: ${language} has no ${pager} for ${op.id}`).toContain(walks);
      }
    }
  });

  it('When the description is read, then the three growing lists are paged and each has a method that walks every page', () => {
    // Arrange / Act
    const operations = readOperations(buildOpenApiDocument() as unknown as Parameters<typeof readOperations>[0]);
    const paged = operations.filter((op) => pagedList(op));

    // Assert
    expect(paged.map((op) => op.id).sort()).toEqual(['listBatches', 'listConnectorRuns', 'listWebhookDeliveries']);
    expect(paged.map((op) => pagerName(op, 'ts'))).toEqual(expect.arrayContaining(['listAll', 'runsAll', 'deliveriesAll']));
    expect(paged.map((op) => pagerName(op, 'py'))).toEqual(expect.arrayContaining(['list_all', 'runs_all', 'deliveries_all']));
    expect(paged.map((op) => pagerName(op, 'go'))).toEqual(expect.arrayContaining(['ListAll', 'RunsAll', 'DeliveriesAll']));
  });

  it('When the description gains a paged list, then each client gets the list method and one that walks every page', () => {
    // Arrange: GET /v1/gadgets, a page of batches (the BatchList schema) after a cursor.
    const document = withGadgets(editableDocument());
    document.paths['/v1/gadgets'].get = {
      operationId: 'listGadgets', security: [{ ApiKey: [] }], summary: 'The gadgets',
      parameters: [
        { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } },
        { name: 'starting_after', in: 'query', schema: { type: 'string' } },
      ],
      responses: { 200: { description: 'A page', content: { 'application/json': { schema: { $ref: '#/components/schemas/BatchList' } } } } },
    };

    // Act
    const after = generateModels(document);

    // Assert: the page is the list method's answer; the walk follows the cursor, one page per step.
    const ts = after.get('typescript/src/resources.ts')!;
    expect(ts).toContain('async list(options: ListGadgetsOptions = {}): Promise<Batch[]>');
    expect(ts).toContain('async *listAll(options: ListGadgetsOptions = {}): AsyncGenerator<Batch, void, undefined>');
    expect(ts).toContain('path: `/v1/gadgets`, query: { limit: limit, starting_after: after } }, rest);');
    expect(ts).toContain('if (!page.has_more || !page.next_starting_after) return;');
    const py = after.get('python/src/contact_validator/_resources.py')!;
    expect(py).toMatch(/def list_all\(\s*self,\s*\*,\s*limit: Optional\[int\] = None,\s*starting_after: Optional\[str\] = None,\s*timeout: Optional\[float\] = None,?\s*\) -> Iterator\[Batch\]:/);
    expect(py).toContain('query={"limit": limit, "starting_after": after}');
    const go = after.get('go/resources.go')!;
    expect(go).toContain('func (s *GadgetsService) List(ctx context.Context, params ...*ListGadgetsParams) ([]Batch, error)');
    expect(go).toContain('func (s *GadgetsService) ListAll(ctx context.Context, params ...*ListGadgetsParams) *Iter[Batch]');
    expect(go).toContain('return out.Batches, out.HasMore, out.NextStartingAfter, nil');
    const java = after.get('java/src/main/java/com/contactvalidator/Gadgets.java')!;
    expect(java).toContain('public PagedIterable<Batch> listAll(Integer limit, String startingAfter) {');
    expect(java).toContain('public PagedIterable<Batch> listAll() {');
    expect(java).toContain('parameters.put("starting_after", after);');
  });

  it('When a paged list takes no starting_after, then generation fails and names it', () => {
    // Arrange
    const document = editableDocument();
    const operation = document.paths['/v1/batches'].get;
    operation.parameters = operation.parameters.filter((p: { name: string }) => p.name !== 'starting_after');

    // Act / Assert
    expect(() => generateModels(document)).toThrow(/listBatches: a paged answer without an optional starting_after/);
  });

  it('When a body schema gains a member, then the hand-written request types of Go and Java are found to lack it', () => {
    // Arrange: the members each body schema has (every variant's, for a union).
    const schemas = (buildOpenApiDocument() as unknown as { components: { schemas: Record<string, any> } }).components.schemas;
    const members = (id: string): string[] => {
      const schema = schemas[id];
      const variants = schema.anyOf ?? schema.oneOf;
      if (variants) return [...new Set<string>(variants.flatMap((v: { $ref: string }) => members(v.$ref.split('/').pop()!)))];
      return Object.keys(schema.properties);
    };
    const goSource = fs.readdirSync(path.join(CLIENTS_DIR, 'go')).filter((f) => f.endsWith('.go') && !f.endsWith('_test.go'))
      .map((f) => fs.readFileSync(path.join(CLIENTS_DIR, 'go', f), 'utf8')).join('\n');
    const goTags = (type: string) => {
      const body = new RegExp(`type ${type.replace('*', '')} struct \\{([\\s\\S]*?)\\n\\}`).exec(goSource)?.[1] ?? '';
      return [...body.matchAll(/json:"([^",]+)/g)].map((m) => m[1]);
    };

    // Act / Assert: each hand-written type sends every member (Go by its JSON tags, Java's builder by name).
    for (const [id, type] of Object.entries(GO_BODY_TYPES)) {
      expect(goTags(type), `clients/go: ${type} lacks members of ${id}`).toEqual(expect.arrayContaining(members(id)));
    }
    for (const [id, type] of Object.entries(JAVA_BODY_TYPES)) {
      const source = fs.readFileSync(path.join(CLIENTS_DIR, `java/src/main/java/com/contactvalidator/${type}.java`), 'utf8');
      const missing = members(id).filter((wire) => !source.includes(`"${wire}"`));
      expect(missing, `clients/java: ${type} lacks members of ${id}`).toEqual([]);
    }
  });

  it('When the description gains operations, then each client gets a method with its path, parameters and key', () => {
    // Arrange
    const before = generateModels();
    const document = withGadgets(editableDocument());

    // Act
    const after = generateModels(document);

    // Assert: the resource files of the four clients change, the models do not.
    const changed = [...after.keys()].filter((file) => after.get(file) !== before.get(file)).sort();
    expect(changed).toEqual([
      'go/resources.go',
      'java/src/main/java/com/contactvalidator/ContactValidatorOperations.java',
      'java/src/main/java/com/contactvalidator/Gadgets.java',
      'python/src/contact_validator/_client_base.py',
      'python/src/contact_validator/_resources.py',
      'typescript/src/client-base.ts',
      'typescript/src/resources.ts',
    ]);
    const ts = after.get('typescript/src/resources.ts')!;
    expect(ts).toContain('async create(body: Record<string, unknown>, options: CreateGadgetOptions = {}): Promise<Batch>');
    expect(ts).toContain("idempotencyKey = await randomUUID()");
    expect(ts).toContain("async get(gadgetId: string, options: GetGadgetOptions = {}): Promise<Batch>");
    expect(ts).toContain('path: `/v1/gadgets/${encodeURIComponent(gadgetId)}`, query: { verbose: verbose }');
    expect(after.get('typescript/src/client-base.ts')).toContain('this.gadgets = new Gadgets(transport);');
    const py = after.get('python/src/contact_validator/_resources.py')!;
    expect(py).toContain('class Gadgets:');
    expect(py).toMatch(/def create\(\s+self,\s+\*,\s+label: str,\s+idempotency_key: Optional\[str\] = None,/);
    expect(py).toContain('headers={"Idempotency-Key": idempotency_key or str(uuid.uuid4())}');
    expect(py).toMatch(/def get\(\s*self,\s*gadget_id: str,\s*\*,\s*verbose: Optional\[bool\] = None,\s*timeout: Optional\[float\] = None,?\s*\) -> Batch:/);
    const go = after.get('go/resources.go')!;
    expect(go).toContain('func (s *GadgetsService) Get(ctx context.Context, gadgetID string, params ...*GetGadgetParams) (*Batch, error)');
    expect(go).toContain('\tVerbose *bool\n');
    expect(go).toContain('func (s *GadgetsService) Create(ctx context.Context, body any) (*Batch, error)');
    expect(go).toContain('header: http.Header{"Idempotency-Key": {newIdempotencyKey()}}');
    const java = after.get('java/src/main/java/com/contactvalidator/Gadgets.java')!;
    expect(java).toContain('public Batch get(String gadgetId, Boolean verbose) {');
    expect(java).toContain('public Batch get(String gadgetId) {');
    expect(java).toContain('public Batch create(String label) {');
    expect(java).toContain('.withIdempotencyKey()');
    expect(after.get('java/src/main/java/com/contactvalidator/ContactValidatorOperations.java')).toContain('public Gadgets gadgets() {');
  });

  it('When an operation has no operationId, then generation fails and names it', () => {
    // Arrange
    const document = withGadgets(editableDocument());
    delete document.paths['/v1/gadgets/{gadget_id}'].get.operationId;

    // Act / Assert
    expect(() => generateModels(document)).toThrow(/GET \/v1\/gadgets\/\{gadget_id\}: no operationId/);
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
