/**
 * POST /v1/validate/batch called every way the description lists (openapi.test.ts checks each answer; the 401, 429,
 * 500 and 503 of every keyed endpoint are provoked there for all of them).
 */
import crypto from 'node:crypto';
import { expect } from 'vitest';
import type { TestService } from '../support/service.js';
import type { Conformance } from './conformance.js';
import { BIG_JSON, call, json } from './http.js';

const PATH = '/v1/validate/batch';

export async function provokeValidateBatch(s: TestService, conformance: Conformance): Promise<void> {
  const { apiKey, accountId, keyId } = await s.newAccount(3);
  const check = async (init: Parameters<typeof call>[3]) => conformance.check('POST', PATH, await call(s, 'POST', PATH, { key: apiKey, ...init }));
  const contacts = [
    { input_id: '1', address: '6007 Applegate Ln, Louisville, KY 40219', email: 'ann@gmial.com', phone: '+1 502-713-4410', options: { smtp: false } },
    { input_id: '2', address: '1600 Amphitheatre Pkwy, Mountain View, CA 94043' },
  ];

  // A partial answer: the first contact costs 4 credits, more than the account has; the second is answered.
  const partial = await check(json({ contacts }));
  expect(partial.failed).toBe(1);
  expect(partial.results.map((r: { problem: { type: string } | null }) => r.problem?.type ?? null)).toEqual(['/problems/insufficient-credits', null]);
  expect((await check(json('{"contacts":'))).type).toBe('/problems/invalid-json');
  expect((await check(json({ contacts: [] }))).type).toBe('/problems/invalid-request');
  expect((await check({ ...json({ contacts }), headers: { 'idempotency-key': 'has space' } })).type).toBe('/problems/invalid-header');
  expect((await check(json({ contacts: [{ input_id: 'x', address: 'y'.repeat(1_100_000) }] }))).type).toBe('/problems/contacts-too-large');
  expect((await check({ body: 'x', type: 'text/plain' })).type).toBe('/problems/unsupported-media-type');
  const many = Array.from({ length: 101 }, (_, i) => ({ input_id: String(i), email: 'a@b.co' }));
  expect((await check(json({ contacts: many }))).type).toBe('/problems/too-many-contacts');

  const once = { 'idempotency-key': 'conformance-batch-1' };
  await check({ ...json({ contacts: [contacts[1]] }), headers: once });
  expect((await check({ ...json({ contacts: [contacts[0]] }), headers: once })).type).toBe('/problems/idempotency-key-reused');
  const body = JSON.stringify({ contacts: [contacts[1]] });
  await s.db.run(
    `INSERT INTO idempotency_records (account_id, key_id, idempotency_key, request_hash, state, created_at, expires_at) VALUES ($1, $2, $3, $4, 'in_flight', $5, $6)`,
    [accountId, keyId, 'conformance-batch-2', crypto.createHash('sha256').update(body).digest('hex'), Date.now(), Date.now() + 60_000],
  );
  expect((await check({ ...json(body), headers: { 'idempotency-key': 'conformance-batch-2' } })).type).toBe('/problems/idempotency-key-in-use');
}

/** /v1/policies called every way the description lists, and `?policy=` on the validate calls. */
export async function provokePolicies(s: TestService, conformance: Conformance): Promise<void> {
  const { apiKey } = await s.newAccount(10);
  const at = async (method: string, template: string, path: string, init: Parameters<typeof call>[3] = {}) =>
    conformance.check(method, template, await call(s, method, path, { key: apiKey, ...init }));
  const ONE = '/v1/policies/{policy_id}';
  const made = await at('POST', '/v1/policies', '/v1/policies', json({ name: 'webshop', base: 'checkout', email: { reasons: { role: 'confirm' } } }));
  expect(made).toMatchObject({ name: 'webshop', base: 'checkout', email: { reasons: { role: 'confirm', disposable: 'confirm' } } });
  expect((await at('POST', '/v1/policies', '/v1/policies', json({ name: 'webshop' }))).reason).toBe('name_taken');
  expect((await at('POST', '/v1/policies', '/v1/policies', json({ name: 'signup' }))).errors[0].field).toBe('name');
  expect((await at('POST', '/v1/policies', '/v1/policies', json('{'))).type).toBe('/problems/invalid-json');
  expect((await at('POST', '/v1/policies', '/v1/policies', BIG_JSON)).type).toBe('/problems/payload-too-large');
  expect((await at('POST', '/v1/policies', '/v1/policies', { body: 'x', type: 'text/plain' })).type).toBe('/problems/unsupported-media-type');
  expect((await at('GET', '/v1/policies', '/v1/policies')).policies).toHaveLength(1);
  const mine = `/v1/policies/${made.policy_id}`;
  expect((await at('GET', ONE, mine)).name).toBe('webshop');
  expect((await at('GET', ONE, '/v1/policies/pol_missing')).type).toBe('/problems/not-found');
  expect((await at('PATCH', ONE, mine, json({ phone: { statuses: { unknown: 'fix' } } }))).phone.statuses.unknown).toBe('fix');
  expect((await at('PATCH', ONE, mine, json({ phone: { statuses: { unknown: 'maybe' } } }))).type).toBe('/problems/invalid-request');
  expect((await at('PATCH', ONE, mine, json('{'))).type).toBe('/problems/invalid-json');
  expect((await at('PATCH', ONE, mine, BIG_JSON)).type).toBe('/problems/payload-too-large');
  expect((await at('PATCH', ONE, mine, { body: 'x', type: 'text/plain' })).type).toBe('/problems/unsupported-media-type');
  expect((await at('PATCH', ONE, '/v1/policies/pol_missing', json({}))).type).toBe('/problems/not-found');
  const key = await at('POST', '/v1/keys', '/v1/keys', json({ policy: 'webshop' }));
  expect(key.policy).toBe('webshop');
  expect((await at('DELETE', ONE, mine)).reason).toBe('in_use');
  await at('DELETE', '/v1/keys/{key_id}', `/v1/keys/${key.key_id}`);
  expect(await at('DELETE', ONE, mine)).toBeNull();
  expect((await at('DELETE', ONE, mine)).type).toBe('/problems/not-found');
  const validate = await at('POST', '/v1/validate', '/v1/validate?policy=nope', json({ email: 'a@b.co' }));
  expect(validate.errors).toEqual([expect.objectContaining({ field: 'policy' })]);
  await at('POST', '/v1/validate/batch', '/v1/validate/batch?policy=crm_cleanup', json({ contacts: [{ input_id: '1', email: 'a@b.co' }] }));
}
