/**
 * The client against the real service (clients/testing/start-service.ts) and its fault proxy. Tests in this file run
 * one after another: the proxy's faults apply to whatever request comes next.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AddressEvidence, type AddressLocation, AuthenticationError, type Batch, ConflictError, ConnectionError, ContactValidator, InvalidRequestError,
  LocationPrecision, NextAction, NotFoundError, RateLimitError, ServiceUnavailableError, verifyWebhook, WebhookSignatureError,
} from '../src/index.js';
import { type RealService, startRealService } from './real-service.js';

const CSV = 'Street,City,State,Zip,Email,Phone\r\n'
  + '1600 Amphitheatre Pkwy,Mountain View,CA,94043,someone@example.com,+14155550123\r\n'
  + '1 Infinite Loop,Cupertino,CA,95014,,+1 415 555 0101\r\n';

let service: RealService;
let client: ContactValidator;
let tmp: string;

beforeAll(async () => {
  service = await startRealService();
  client = new ContactValidator({ apiKey: service.api_key, baseUrl: service.url, timeoutMs: 10_000 });
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cv-client-ts-'));
});

afterAll(async () => {
  await service?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('validate and the account', () => {
  it('When an address, an e-mail and a phone are validated, then each module answers in the documented vocabulary', async () => {
    const answer = await client.validate({
      address: '1600 Amphitheatre Pkwy, Mountain View, CA 94043', email: 'someone@example.com', phone: '+14155550123',
      options: { smtp: false },
    });

    expect(['verified', 'corrected', 'partial', 'plausible', 'ambiguous', 'invalid']).toContain(answer.address?.status);
    expect(answer.address?.standardized).toMatch(/^1600 AMPHITHEATRE PKWY MOUNTAIN VIEW CA 94043/);
    // Only the ZIP, city and state agree with the embedded data: the ZIP's centre, typed as the models say.
    const location: AddressLocation | null | undefined = answer.address?.location;
    const evidence: AddressEvidence | undefined = answer.address?.evidence;
    expect([evidence, answer.address?.sources, location?.precision]).toEqual([AddressEvidence.PostalCode, ['geonames'], LocationPrecision.PostalCode]);
    expect(location).toMatchObject({ lat: expect.closeTo(37.41, 1), lon: expect.closeTo(-122.08, 1) });
    expect(['valid', 'invalid', 'risky', 'unknown']).toContain(answer.email?.status);
    expect(answer.phone).toMatchObject({ status: 'valid', e164: '+14155550123', country: 'US' });
    expect(answer.credits?.charged).toBeGreaterThan(0);
    expect(answer.request_id).toMatch(/^req_/);
  });

  it('When a module is not asked for, then it is null', async () => {
    const answer = await client.validate({ phone: '+14155550123' });
    expect(answer.address).toBeNull();
    expect(answer.email).toBeNull();
  });

  it('When the same Idempotency-Key is sent twice, then the second answer is the first one and costs nothing', async () => {
    const before = (await client.account()).balance;
    const first = await client.validate({ phone: '+14155550123' }, { idempotencyKey: 'fixed-key-1' });
    const second = await client.validate({ phone: '+14155550123' }, { idempotencyKey: 'fixed-key-1' });
    expect(second).toEqual(first);
    expect((await client.account()).balance).toBe(before - first.credits!.charged);
  });

  it('When the account is read, then balance, grants, usage and keys come back', async () => {
    const account = await client.account();
    expect(account.account_id).toBe(service.account_id);
    expect(account.balance).toBeGreaterThan(0);
    expect(account.grants.length).toBeGreaterThan(0);
    expect(account.usage.phone.requests).toBeGreaterThan(0);
    expect(account.keys.length).toBeGreaterThan(0);
  });

  it('When a key is created, listed and revoked, then it works until it is revoked, and then answers 401', async () => {
    const created = await client.keys.create();
    expect(created.api_key).toMatch(/^cv_live_/);
    expect((await client.keys.list()).map((k) => k.key_id)).toContain(created.key_id);
    const other = new ContactValidator({ apiKey: created.api_key, baseUrl: service.url });
    expect((await other.account()).account_id).toBe(service.account_id);

    const revoked = await client.keys.revoke(created.key_id);

    expect(revoked.revoked_at).toBeTruthy();
    await expect(other.account()).rejects.toBeInstanceOf(AuthenticationError);
  });

  it('When a publishable key validates, then credits is null', async () => {
    const { api_key } = await client.keys.create({ publishable: true, origins: ['https://shop.example.com'] });
    const browser = new ContactValidator({ apiKey: api_key, baseUrl: service.url });
    const answer = await browser.validate({ email: 'someone@example.com' }, { headers: { origin: 'https://shop.example.com' } });
    expect(answer.credits).toBeNull();
  });
});

describe('methods generated for operations no one wrote by hand', () => {
  it('When the usage is asked for, then every day of the last 30 comes, today counting the calls just made', async () => {
    // Arrange
    await client.validate({ phone: '+14155550123' });
    const today = new Date().toISOString().slice(0, 10);

    // Act
    const days = (await client.getUsage()) as Array<{ date: string; phone: number }>;

    // Assert
    expect(days.length).toBeGreaterThanOrEqual(30);
    expect(days.find((day) => day.date === today)?.phone).toBeGreaterThan(0);
    expect(await client.getUsage({ from: today, to: today })).toHaveLength(1);
  });

  it('When an e-mail check that does not exist is read, then NotFoundError with the problem', async () => {
    const error = await client.emailChecks.get('chk_does_not_exist').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).status).toBe(404);
  });
});

describe('address autocomplete', () => {
  it('When the start of a delivery line is typed, then the delivery point comes first, free of credits', async () => {
    const before = (await client.account()).balance;
    const suggestions = await client.autocompleteAddress('6007 Applegate La');
    const places = await client.autocompleteAddress('Louisville, KY 4021', { country: 'US', limit: 2 });

    expect(suggestions[0]).toEqual({
      text: '6007 APPLEGATE LN, LOUISVILLE, KY 40219', street: '6007 APPLEGATE LN', city: 'LOUISVILLE', state: 'KY', zip: '40219',
      country: 'US', kind: 'address',
    });
    expect(places.map((p) => p.zip)).toEqual(['40210', '40211']);
    expect((await client.account()).balance).toBe(before);
  });

  it('When the limit is out of range, then InvalidRequestError names the field', async () => {
    const error = await client.autocompleteAddress('main', { limit: 50 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).errors.map((e) => e.field)).toEqual(['limit']);
  });
});

describe('test keys and next_action', () => {
  it('When a test key validates the documented fixed inputs, then next_action and test say so, and nothing is charged', async () => {
    const { api_key } = await client.keys.create({ test: true });
    const tester = new ContactValidator({ apiKey: api_key, baseUrl: service.url });
    const before = (await client.account()).balance;

    const good = await tester.validate({ address: '6007 Applegate Ln, Louisville, KY 40219', phone: '+1 502-713-4410' });
    const typo = await tester.validate({ email: 'ann@gmial.com' });
    const bad = await tester.validate({ email: 'jane.doe@gmail.con' });

    expect(api_key).toMatch(/^cv_test_/);
    expect(good).toMatchObject({ next_action: NextAction.Accept, test: true, credits: { charged: 0 }, address: { status: 'verified', next_action: 'accept' } });
    expect(typo).toMatchObject({ next_action: NextAction.Confirm, email: { suggestion: 'ann@gmail.com', next_action: 'confirm' } });
    expect(bad).toMatchObject({ next_action: NextAction.Fix, email: { status: 'invalid', reason: 'no_such_domain' } });
    expect((await client.account()).balance).toBe(before);
    await expect(tester.account()).rejects.toBeInstanceOf(AuthenticationError);
  });
});

describe('typed errors', () => {
  it('When the key is unknown, then AuthenticationError carries the problem document', async () => {
    const bad = new ContactValidator({ apiKey: 'cv_live_not_a_key', baseUrl: service.url });
    const error = await bad.validate({ email: 'a@example.com' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: 'unauthorized', type: '/problems/unauthorized' });
    expect((error as AuthenticationError).requestId).toMatch(/^req_/);
    expect((error as AuthenticationError).headers?.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('When the body names no module, then InvalidRequestError lists the field errors', async () => {
    const error = await client.validate({}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).status).toBe(400);
    expect((error as InvalidRequestError).errors[0]).toMatchObject({ field: '(body)' });
  });

  it('When a batch does not exist, then NotFoundError', async () => {
    await expect(client.batches.get('batch_doesNotExist')).rejects.toMatchObject({ name: 'NotFoundError', status: 404, code: 'not-found' });
    await expect(client.batches.get('batch_doesNotExist')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('When a completed batch is resumed, then ConflictError batch-not-paused', async () => {
    const batch = await client.batches.create(CSV, { smtp: false });
    await client.batches.waitFor(batch.batch_id, { pollMs: 50, timeoutMs: 10_000 });
    const error = await client.batches.resume(batch.batch_id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ status: 409, code: 'batch-not-paused' });
  });

  it('When a CSV row breaks the grammar, then InvalidRequestError 422 says the line', async () => {
    const error = await client.batches.create('Email,Phone\r\na@example.com,1\r\n"broken,2\r\n').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error).toMatchObject({ status: 422, code: 'invalid-csv' });
    expect((error as InvalidRequestError).line).toBeGreaterThanOrEqual(3);
  });

  it('When the upload is not CSV, then InvalidRequestError 415', async () => {
    const error = await client.batches.create('%PDF-1.7\nx', { contentType: 'application/pdf' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error).toMatchObject({ status: 415, code: 'unsupported-media-type' });
  });
});

describe('batches', () => {
  it('When a file is uploaded by path, then waitFor reports progress and the result has every row enriched', async () => {
    const file = path.join(tmp, 'contacts.csv');
    fs.writeFileSync(file, CSV);
    const progress: string[] = [];

    const created = await client.batches.create(file, { name: 'from a path', smtp: false });
    const done = await client.batches.waitFor(created.batch_id, { pollMs: 50, timeoutMs: 10_000, onProgress: (b) => progress.push(b.status) });
    const text = await (await client.batches.result(created.batch_id)).text();

    expect(created).toMatchObject({ name: 'from a path', rows_total: 2, columns: { email: 'Email', phone: 'Phone' } });
    expect(created.columns.address).toEqual(['Street', 'City', 'State', 'Zip']);
    expect(done).toMatchObject({ status: 'completed', rows_done: 2 });
    expect(progress.at(-1)).toBe('completed');
    const lines = text.trim().split(/\r\n/);
    expect(lines[0]).toMatch(/^Street,City,State,Zip,Email,Phone,cv_address_status,.*,cv_error,cv_address_notes,cv_email_reason,cv_email_flags,cv_next_action,cv_address_lat,cv_address_lon,cv_address_precision,cv_address_evidence,cv_address_changes,cv_feedback$/);
    expect(lines).toHaveLength(3);
    expect(lines[2]).toContain("'+1 415 555 0101"); // OWASP formula guard on the input cell
  });

  it('When the columns are named, then only those are read', async () => {
    const created = await client.batches.create(Buffer.from(CSV), { smtp: false, emailColumn: 'Email', addressColumns: ['Street', 'City', 'State', 'Zip'] });
    expect(created.columns).toMatchObject({ address: ['Street', 'City', 'State', 'Zip'], email: 'Email', phone: null });
  });

  it('When the file is a Blob, a ReadableStream or a Node stream, then it is uploaded the same', async () => {
    const fromBlob = await client.batches.create(new Blob([CSV]), { smtp: false });
    const fromWebStream = await client.batches.create(new Blob([CSV]).stream(), { smtp: false });
    const fromNodeStream = await client.batches.create(Readable.from([Buffer.from(CSV)]), { smtp: false });
    for (const b of [fromBlob, fromWebStream, fromNodeStream]) expect(b.rows_total).toBe(2);
  });

  it('When the result is saved to a file, streamed or asked partial, then the bytes are the same CSV', async () => {
    const created = await client.batches.create(CSV, { smtp: false });
    await client.batches.waitFor(created.batch_id, { pollMs: 50, timeoutMs: 10_000 });
    const out = path.join(tmp, 'out.csv');

    const bytes = await (await client.batches.result(created.batch_id)).saveTo(out);
    const chunks: Uint8Array[] = [];
    for await (const chunk of await client.batches.result(created.batch_id)) chunks.push(chunk);
    const partial = await (await client.batches.result(created.batch_id, { partial: true })).text();

    expect(bytes).toBe(fs.statSync(out).size);
    expect(Buffer.concat(chunks).toString()).toBe(fs.readFileSync(out, 'utf8'));
    expect(partial).toBe(fs.readFileSync(out, 'utf8'));
  });

  it('When batches are listed and one is canceled, then the list is newest first and the canceled one ended', async () => {
    const created = await client.batches.create(CSV, { smtp: false, name: 'to cancel' });
    const list = await client.batches.list();
    expect(list[0].batch_id).toBe(created.batch_id);

    const canceled = await client.batches.cancel(created.batch_id);
    // A batch this small has usually completed before the DELETE arrives; it then stays completed.
    expect(['canceled', 'completed']).toContain(canceled.status);
    // Its result is not read back here: GET …/result of a batch deleted after it completed crashes the whole test
    // service (an unhandled ENOENT on the deleted input.csv), a service bug reported with issue #30.
  });

  it('When more batches than a page are walked with listAll, then each comes once, newest first, a page per request', async () => {
    // Arrange: five more batches, and the account's whole list read as one page.
    const created = [];
    for (let i = 0; i < 5; i++) created.push((await client.batches.create(CSV, { smtp: false, name: `page ${i}` })).batch_id);
    const whole = await client.batches.list({ limit: 100 });
    expect(whole.length).toBeLessThan(100);
    const { forwarded } = await service.counts();

    // Act: pages of two.
    const walked: Batch[] = [];
    for await (const batch of client.batches.listAll({ limit: 2 })) walked.push(batch);

    // Assert: every batch once, in the list's order (newest first), one request per page.
    const ids = walked.map((b) => b.batch_id);
    expect(ids).toEqual(whole.map((b) => b.batch_id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids.slice(0, 5))).toEqual(new Set(created));
    expect(walked.every((b, i) => i === 0 || b.created_at <= walked[i - 1].created_at)).toBe(true);
    expect((await service.counts()).forwarded - forwarded).toBe(Math.ceil(whole.length / 2));
  });

  it('When listAll is left after its first item, then one page was fetched; a 503 on a later page is retried', async () => {
    // Act: the first item only.
    const before = (await service.counts()).forwarded;
    let first: Batch | undefined;
    for await (const batch of client.batches.listAll({ limit: 2 })) {
      first = batch;
      break;
    }
    const oneItem = (await service.counts()).forwarded - before;

    // Act: a walk whose second page is answered 503 once (Retry-After: 1).
    const walked: string[] = [];
    for await (const batch of client.batches.listAll({ limit: 2 })) {
      walked.push(batch.batch_id);
      if (walked.length === 1) await service.fault('503');
    }

    // Assert
    expect(oneItem).toBe(1);
    expect(first?.batch_id).toBe((await client.batches.list({ limit: 1 }))[0].batch_id);
    expect(walked).toEqual((await client.batches.list({ limit: 100 })).map((b) => b.batch_id));
    expect((await service.counts()).pending).toBe(0);
  });

  it('When listAll starts after an id that is not a batch, then InvalidRequestError names starting_after', async () => {
    const walk = client.batches.listAll({ startingAfter: 'batch_made_up' });
    const error = await walk.next().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).errors.map((e) => e.field)).toEqual(['starting_after']);
  });

  it('When the file path does not exist, then the fs error comes back, not a connection error', async () => {
    await expect(client.batches.create(path.join(tmp, 'missing.csv'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('connectors', () => {
  it('When a connector is created, read, changed, run and deleted, then each step answers its resource', async () => {
    const created = await client.connectors.create({
      type: 'salesforce', name: 'Test org', schedule: '*/15 * * * *',
      settings: { login_url: 'http://127.0.0.1:9', api_version: '62.0', objects: ['Contact'] },
      credentials: { client_id: 'id', client_secret: 'secret' },
      write_back: { overwrite_address: false },
    });
    expect(created).toMatchObject({ type: 'salesforce', name: 'Test org', status: 'active' });
    expect(JSON.stringify(created)).not.toContain('secret');

    expect((await client.connectors.list()).map((c) => c.connector_id)).toContain(created.connector_id);
    expect(await client.connectors.get(created.connector_id)).toMatchObject({ connector_id: created.connector_id });
    expect(await client.connectors.update(created.connector_id, { name: 'Renamed' })).toMatchObject({ name: 'Renamed' });

    const { run_id } = await client.connectors.run(created.connector_id);
    expect(run_id).toBeTruthy();
    const runs = await client.connectors.runs(created.connector_id);
    expect(runs[0].run_id).toBe(run_id);

    await client.connectors.delete(created.connector_id);
    await expect(client.connectors.get(created.connector_id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('When the settings are wrong, then InvalidRequestError lists them', async () => {
    const error = await client.connectors.create({
      type: 'salesforce', name: 'x', settings: { login_url: 'not a url' }, credentials: { client_id: '', client_secret: '' },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).errors.length).toBeGreaterThan(0);
  });
});

describe('webhooks', () => {
  it('When the balance falls below the threshold, then the receiver gets a delivery that verifyWebhook accepts, and nothing altered passes', async () => {
    // Arrange: a receiver on 127.0.0.1 keeping each raw body and signature.
    const received: { raw: string; signature: string }[] = [];
    const receiver = http.createServer((req, res) => {
      let raw = '';
      req.setEncoding('utf8').on('data', (c: string) => (raw += c)).on('end', () => {
        received.push({ raw, signature: String(req.headers['contact-validator-signature']) });
        res.end('ok');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    try {
      const endpoint = await client.webhookEndpoints.create({ url, events: ['credits.low'] });

      // Act: a threshold above the balance is crossed at once.
      const account = await client.updateAccount({ low_balance_threshold: 100_000_000 });
      for (let i = 0; i < 200 && !received.length; i++) await new Promise((r) => setTimeout(r, 50));
      const [delivery] = received;
      const event = await verifyWebhook(delivery!.raw, delivery!.signature, endpoint.secret);

      // Assert
      expect(account.low_balance_alert.threshold).toBe(100_000_000);
      expect(event).toMatchObject({ type: 'credits.low', data: { account_id: service.account_id, threshold: 100_000_000 } });
      await expect(verifyWebhook(delivery!.raw.replace('credits.low', 'credits.lox'), delivery!.signature, endpoint.secret)).rejects.toThrow(WebhookSignatureError);
      await expect(verifyWebhook(delivery!.raw, delivery!.signature, 'whsec_someone_else')).rejects.toThrow(WebhookSignatureError);
      await expect(verifyWebhook(delivery!.raw, delivery!.signature, endpoint.secret, { now: Date.now() + 301_000 })).rejects.toThrow(/timestamp/);
      await expect(verifyWebhook(delivery!.raw, undefined, endpoint.secret)).rejects.toThrow(WebhookSignatureError);
      expect((await client.webhookEndpoints.list()).map((e) => e.id)).toContain(endpoint.id);
      const [logged] = await client.webhookEndpoints.deliveries(endpoint.id);
      expect(logged).toMatchObject({ event_id: event.id, type: 'credits.low' });
      const again = await client.webhookEndpoints.redeliver(endpoint.id, logged!.id);
      expect(again).toMatchObject({ status: 'succeeded', attempts: 2 });
      await client.webhookEndpoints.delete(endpoint.id);
      await expect(client.webhookEndpoints.deliveries(endpoint.id)).rejects.toThrow(NotFoundError);
    } finally {
      await client.updateAccount({ low_balance_threshold: null });
      receiver.close();
    }
  });

  it('When the URL is not a URL, then InvalidRequestError names the field', async () => {
    const err = await client.webhookEndpoints.create({ url: 'not a url', events: ['batch.completed'] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidRequestError);
    expect((err as InvalidRequestError).errors[0]?.field).toBe('url');
  });
});

describe('retries through the fault proxy', () => {
  it('When the service answers 503 once, then the call is retried after Retry-After and succeeds', async () => {
    const { faulted } = await service.counts();
    await service.fault('503');
    const started = Date.now();

    const account = await client.account();

    expect(account.account_id).toBe(service.account_id);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950); // Retry-After: 1
    expect((await service.counts()).faulted).toBe(faulted + 1);
  });

  it('When the service answers 429 to a validate, then it is retried and charged once', async () => {
    const before = (await client.account()).balance;
    await service.fault('429');
    const answer = await client.validate({ phone: '+14155550123' });
    expect((await client.account()).balance).toBe(before - answer.credits!.charged);
  });

  it('When the answer to a validate is lost after the service charged it, then the retry is replayed and nothing is charged twice', async () => {
    const before = (await client.account()).balance;
    const { faulted, forwarded } = await service.counts();
    await service.fault('drop_after');

    const answer = await client.validate({ address: '1600 Amphitheatre Pkwy, Mountain View, CA 94043', phone: '+14155550123' });

    const after = await service.counts();
    expect(after.faulted).toBe(faulted + 1);
    expect(after.forwarded - forwarded).toBe(2); // the lost attempt and its retry both reached the service
    expect(answer.credits!.charged).toBeGreaterThan(0);
    expect((await client.account()).balance).toBe(before - answer.credits!.charged);
  });

  it('When connections drop before a GET reaches the service, then it is retried until it gets through', async () => {
    await service.fault('drop_before', 2);
    const quick = new ContactValidator({ apiKey: service.api_key, baseUrl: service.url, initialRetryDelayMs: 20 });
    expect((await quick.batches.list()).length).toBeGreaterThan(0);
    expect((await service.counts()).pending).toBe(0);
  });

  it('When the connection drops on a POST without an Idempotency-Key, then it is not retried', async () => {
    const keysBefore = (await client.keys.list()).length;
    await service.fault('drop_before');
    await expect(client.keys.create()).rejects.toBeInstanceOf(ConnectionError);
    expect((await client.keys.list()).length).toBe(keysBefore);
  });

  it('When retries would run past the total timeout, then the last error comes back in time', async () => {
    await service.fault('503', 2);
    const started = Date.now();
    const error = await client.account({ timeoutMs: 1_800 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(Date.now() - started).toBeLessThan(1_800); // a second wait of 1 s would not fit
    expect((await service.counts()).pending).toBe(0); // two attempts, not a third
  });

  it('When 429 keeps coming, then RateLimitError after maxRetries, with its Retry-After', async () => {
    await service.fault('429', 2);
    const error = await client.account({ maxRetries: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(1);
    expect((await service.counts()).pending).toBe(0);
  });
});
