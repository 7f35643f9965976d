/**
 * Policies (docs/api.md#policies): the presets and an account's own, named by `?policy=`, by a key's default, by a CSV
 * batch; the fixed table when none is named; an account's policies are its own.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { upload, waitForStatus } from '../support/batches.js';
import { testDatabases } from '../support/databases.js';
import { problemOf, useTestService, type TestService } from '../support/service.js';

type Json = Record<string, any>;
/** Offline (the test service checks no mailbox): `risky` with reason `disposable`, and `unknown` with `not_checked`. */
const DISPOSABLE = { email: 'info@mailinator.com' };
const UNCHECKED = { email: 'jane.doe@acme-mail.com' };

describe.each(testDatabases)('policies on $name', (database) => {
  const current = useTestService(database, { BATCH_SWEEP_MS: '100', CONNECTOR_SECRET_KEY: 'd4'.repeat(32), CONNECTOR_ALLOW_PRIVATE: 'true' });
  let service: TestService;
  beforeAll(async () => {
    service = current();
  });
  const nextAction = async (key: string, body: unknown, query = '') => {
    const res = await service.post(`/v1/validate${query}`, body, { key });
    const answer = await res.json() as Json;
    if (res.status !== 200) throw new Error(JSON.stringify(answer));
    return answer.email.next_action as string;
  };

  it('When no policy is named, then the fixed table decides; a preset named by ?policy= decides otherwise, module by module', async () => {
    const { apiKey } = await service.newAccount(50);

    expect(await nextAction(apiKey, DISPOSABLE)).toBe('confirm');
    expect(await nextAction(apiKey, UNCHECKED)).toBe('confirm');
    expect(await nextAction(apiKey, DISPOSABLE, '?policy=default')).toBe('confirm');
    expect(await nextAction(apiKey, DISPOSABLE, '?policy=signup')).toBe('fix');
    expect(await nextAction(apiKey, UNCHECKED, '?policy=signup')).toBe('accept');
    expect(await nextAction(apiKey, DISPOSABLE, '?policy=crm_cleanup')).toBe('fix');
    expect(await nextAction(apiKey, UNCHECKED, '?policy=checkout')).toBe('accept');
    const res = await service.post('/v1/validate?policy=strict', DISPOSABLE, { key: apiKey });
    expect(res.status).toBe(400);
    expect((await problemOf(res)).errors).toEqual([{ field: 'policy', message: expect.stringMatching(/no policy named "strict"/) }]);
  });

  it("When an account makes a policy, then its rules are the preset's with the changes given, it is used by name, changed and deleted, and another account never sees it", async () => {
    const { apiKey } = await service.newAccount(50);
    const other = await service.newAccount(50);

    const made = await service.post('/v1/policies', { name: 'no-throwaways', base: 'checkout', email: { reasons: { disposable: 'fix' } } }, { key: apiKey });
    const policy = await made.json() as Json;
    expect(made.status).toBe(201);
    expect(made.headers.get('location')).toBe(`/v1/policies/${policy.policy_id}`);
    expect(policy).toMatchObject({ name: 'no-throwaways', base: 'checkout', email: { statuses: { unknown: 'accept' }, reasons: { disposable: 'fix' } } });
    expect(await nextAction(apiKey, DISPOSABLE, '?policy=no-throwaways')).toBe('fix');
    expect(await nextAction(apiKey, UNCHECKED, '?policy=no-throwaways')).toBe('accept');

    const change = await fetch(`${service.url}/v1/policies/${policy.policy_id}`, {
      method: 'PATCH', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: { statuses: { unknown: 'fix' } } }),
    });
    expect(change.status).toBe(200);
    expect(((await change.json()) as Json).email.reasons.disposable).toBe('fix');
    // Within the one second a policy read for answers is kept.
    await new Promise((r) => setTimeout(r, 1_100));
    expect(await nextAction(apiKey, UNCHECKED, '?policy=no-throwaways')).toBe('fix');

    expect((await service.get(`/v1/policies/${policy.policy_id}`, other.apiKey)).status).toBe(404);
    expect(((await (await service.get('/v1/policies', other.apiKey)).json()) as Json).policies).toEqual([]);
    expect((await service.post('/v1/validate?policy=no-throwaways', DISPOSABLE, { key: other.apiKey })).status).toBe(400);

    const removed = await fetch(`${service.url}/v1/policies/${policy.policy_id}`, { method: 'DELETE', headers: { authorization: `Bearer ${apiKey}` } });
    expect(removed.status).toBe(204);
    expect((await service.post('/v1/validate?policy=no-throwaways', DISPOSABLE, { key: apiKey })).status).toBe(400);
  });

  it('When a policy is written wrong or under a taken name, then 400 or 409 and nothing is kept', async () => {
    const { apiKey } = await service.newAccount(10);
    await service.post('/v1/policies', { name: 'mine' }, { key: apiKey });

    const badAction = await service.post('/v1/policies', { name: 'other', email: { statuses: { risky: 'maybe' } } }, { key: apiKey });
    const badStatus = await service.post('/v1/policies', { name: 'other', address: { statuses: { great: 'accept' } } }, { key: apiKey });
    const preset = await service.post('/v1/policies', { name: 'signup' }, { key: apiKey });
    const taken = await service.post('/v1/policies', { name: 'mine' }, { key: apiKey });

    expect(badAction.status).toBe(400);
    expect((await problemOf(badAction)).errors).toEqual([expect.objectContaining({ field: 'email.statuses.risky' })]);
    expect(badStatus.status).toBe(400);
    expect(preset.status).toBe(400);
    expect(taken.status).toBe(409);
    expect(await problemOf(taken)).toMatchObject({ type: '/problems/policy-conflict', reason: 'name_taken' });
    expect(((await (await service.get('/v1/policies', apiKey)).json()) as Json).policies.map((p: Json) => p.name)).toEqual(['mine']);
  });

  it("When a key is made with a default policy, then its answers follow it unless ?policy= names another, and the policy cannot be deleted while the key lives", async () => {
    const { apiKey } = await service.newAccount(50);
    const created = await service.post('/v1/policies', { name: 'forms', base: 'signup' }, { key: apiKey });
    const policy = await created.json() as Json;
    const key = await (await service.post('/v1/keys', { policy: 'forms' }, { key: apiKey })).json() as Json;
    const unknown = await service.post('/v1/keys', { policy: 'nope' }, { key: apiKey });

    expect(key.policy).toBe('forms');
    expect(unknown.status).toBe(400);
    expect(await nextAction(key.api_key, DISPOSABLE)).toBe('fix');
    expect(await nextAction(key.api_key, DISPOSABLE, '?policy=default')).toBe('confirm');
    const keys = ((await (await service.get('/v1/keys', apiKey)).json()) as Json).keys;
    expect(keys.find((k: Json) => k.key_id === key.key_id).policy).toBe('forms');
    const del = await fetch(`${service.url}/v1/policies/${policy.policy_id}`, { method: 'DELETE', headers: { authorization: `Bearer ${apiKey}` } });
    expect(del.status).toBe(409);
    expect((await problemOf(del)).reason).toBe('in_use');
  });

  it('When the batch call and a CSV batch name a policy, then their next_action follow it', async () => {
    const { apiKey } = await service.newAccount(50);

    const batch = await service.post('/v1/validate/batch?policy=signup', { contacts: [{ input_id: 'x', ...DISPOSABLE }, { input_id: 'y', ...UNCHECKED }] }, { key: apiKey });
    const csv = await upload(service, apiKey, `Email\r\n${DISPOSABLE.email}\r\n${UNCHECKED.email}\r\n`, { query: '?policy=signup&smtp=false' });
    const plain = await upload(service, apiKey, `Email\r\n${DISPOSABLE.email}\r\n`, { query: '?smtp=false' });
    const wrong = await upload(service, apiKey, `Email\r\n${DISPOSABLE.email}\r\n`, { query: '?policy=nope' });

    expect(((await batch.json()) as Json).results.map((r: Json) => r.next_action)).toEqual(['fix', 'accept']);
    const lastColumn = async (res: Response) => {
      const { batch_id: id } = await res.json() as Json;
      await waitForStatus(service, apiKey, id, ['completed']);
      const lines = (await (await service.get(`/v1/batches/${id}/result`, apiKey)).text()).trim().split(/\r?\n/);
      const at = lines[0].split(',').indexOf('cv_next_action');
      return lines.slice(1).map((l) => l.split(',')[at]);
    };
    expect(await lastColumn(csv)).toEqual(['fix', 'accept']);
    expect(await lastColumn(plain)).toEqual(['confirm']);
    expect(wrong.status).toBe(400);
    expect((await problemOf(wrong)).errors).toEqual([expect.objectContaining({ field: 'policy' })]);
  });

  it('When a connector names a policy, then it is shown and changed, an unknown one is refused on the field, and the policy cannot be deleted while a connector names it', async () => {
    const { apiKey } = await service.newAccount(50);
    const policy = await (await service.post('/v1/policies', { name: 'crm', base: 'crm_cleanup' }, { key: apiKey })).json() as Json;
    const body = (portal: number, named: Json) => ({
      type: 'hubspot', name: `CRM ${portal}`, settings: { portal_id: portal, api_base_url: 'http://127.0.0.1:9' }, credentials: { access_token: 'pat-x' }, ...named,
    });
    const patch = (id: string, changes: Json) => fetch(`${service.url}/v1/connectors/${id}`, {
      method: 'PATCH', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(changes),
    });
    const remove = () => fetch(`${service.url}/v1/policies/${policy.policy_id}`, { method: 'DELETE', headers: { authorization: `Bearer ${apiKey}` } });

    const plain = await (await service.post('/v1/connectors', body(1, {}), { key: apiKey })).json() as Json;
    const following = await (await service.post('/v1/connectors', body(2, { policy: 'crm' }), { key: apiKey })).json() as Json;
    const unknown = await service.post('/v1/connectors', body(3, { policy: 'strict' }), { key: apiKey });
    const changed = await patch(plain.connector_id, { policy: 'checkout' });
    const wrongPatch = await patch(plain.connector_id, { policy: 'nope' });
    const refused = await remove();

    expect(plain.policy).toBeNull();
    expect(following.policy).toBe('crm');
    expect(unknown.status).toBe(400);
    expect(await problemOf(unknown)).toMatchObject({
      type: '/problems/invalid-request',
      errors: [{ field: 'policy', message: 'no policy named "strict" (a preset: default, signup, checkout, crm_cleanup, or one of GET /v1/policies)' }],
    });
    expect(((await changed.json()) as Json).policy).toBe('checkout');
    expect(wrongPatch.status).toBe(400);
    expect((await problemOf(wrongPatch)).errors).toEqual([expect.objectContaining({ field: 'policy' })]);
    expect(((await (await service.get(`/v1/connectors/${plain.connector_id}`, apiKey)).json()) as Json).policy).toBe('checkout');
    expect(refused.status).toBe(409);
    expect(await problemOf(refused)).toMatchObject({
      reason: 'in_use', detail: `Connector ${following.connector_id} uses "crm"; give it another policy first (PATCH /v1/connectors/{id}).`,
    });

    // Back to the fixed table: the policy is free to go.
    expect(((await (await patch(following.connector_id, { policy: null })).json()) as Json).policy).toBeNull();
    expect((await remove()).status).toBe(204);
  });
});
