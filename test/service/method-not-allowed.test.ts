/**
 * 405 with `Allow` (RFC 9110 §15.5.6): the methods a path answers come from the endpoint declarations that also build the
 * routes and the OpenAPI description (src/http/endpoints/), and from the dashboard's routes. Read here through the
 * description the service serves: every path it lists answers another method with 405, and `Allow` names what it lists.
 */
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { useTestService } from '../support/service.js';

type Json = Record<string, any>;

/** A path of the description with its parameters filled in. */
const concrete = (template: string) => template.replace(/\{[^}]+\}/g, 'x1');

describe.each(testDatabases)('405 and Allow ($name)', (database) => {
  const service = useTestService(database);

  it('When a path of the description is called with a method none declares, then 405 and Allow lists every documented method', async () => {
    const doc = (await (await service().get('/v1/openapi.json')).json()) as Json;
    const paths = Object.entries(doc.paths as Record<string, Json>);

    const answers = await Promise.all(paths.map(async ([template, operations]) => {
      const res = await fetch(service().url + concrete(template), { method: 'PUT' });
      return { template, operations, status: res.status, allow: res.headers.get('allow')?.split(', ') ?? [] };
    }));

    expect(paths.length).toBeGreaterThanOrEqual(25);
    for (const { template, operations, status, allow } of answers) {
      expect(status, template).toBe(405);
      const documented = Object.keys(operations).map((m) => m.toUpperCase());
      expect(allow, template).toEqual(expect.arrayContaining(documented.includes('GET') ? [...documented, 'HEAD'] : documented));
    }
  });

  it.each([
    ['PUT', '/v1/validate', 'POST, OPTIONS'],
    ['DELETE', '/v1/keys', 'GET, HEAD, POST'],
    ['POST', '/v1/batches/batch_x/result', 'GET, HEAD'],
    ['PUT', '/v1/connectors/c1', 'GET, HEAD, PATCH, DELETE'],
    ['GET', '/webhooks/stripe', 'POST'],
    ['POST', '/problems/not-found', 'GET, HEAD'],
    ['DELETE', '/signin', 'GET, HEAD, POST'],
    ['GET', '/members/m1/remove', 'POST'],
  ])('When %s %s is asked, then 405 with Allow: %s', async (method, path, allow) => {
    const res = await fetch(service().url + path, { method });

    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe(allow);
    expect(((await res.json()) as Json).type).toBe('/problems/method-not-allowed');
  });

  it('When a path no route has is asked, then 404 without Allow', async () => {
    const res = await fetch(`${service().url}/v1/nothing-here`, { method: 'PUT' });

    expect(res.status).toBe(404);
    expect(res.headers.get('allow')).toBeNull();
  });
});
