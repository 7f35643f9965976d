/**
 * The job engine's transitions as webhooks (docs/webhooks.md#events), against the real service on SQLite and
 * PostgreSQL: a CSV batch that completes, one that pauses for want of credits, and a connector run that fails each
 * reach a subscribed receiver on 127.0.0.1 once, signed; an endpoint not subscribed to the event gets nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySignature } from '../../src/webhooks/signature.js';
import { json, request } from '../support/connector-api.js';
import { testDatabases } from '../support/databases.js';
import { startTestService, type TestService } from '../support/service.js';
import { startWebhookReceiver, type ReceivedDelivery, type WebhookReceiver } from '../support/webhook-receiver.js';

const ENV = {
  CONNECTOR_SECRET_KEY: 'e5'.repeat(32), CONNECTOR_ALLOW_PRIVATE: 'true', WEBHOOKS_ALLOW_PRIVATE: 'true',
  WEBHOOKS_TICK_MS: '1000', BATCH_SWEEP_MS: '200',
};
const CSV = 'Street,City,State,Zip\r\n6007 Applegate Ln,Louisville,KY,40219\r\n1600 Amphitheatre Pkwy,Mountain View,CA,94043\r\n';

describe.each(testDatabases)('job events as webhooks on $name', (database) => {
  let s: TestService;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    s = await startTestService(await database.create(), ENV);
  });
  afterAll(async () => {
    await s?.close();
    await receiver?.close();
    await database.dropAll();
  });

  async function subscribe(key: string, events: string[]) {
    const res = await request(s, 'POST', '/v1/webhook_endpoints', key, { url: receiver.url, events });
    expect(res.status).toBe(201);
    return (await json(res)).secret as string;
  }
  async function upload(key: string) {
    const res = await fetch(`${s.url}/v1/batches?smtp=false&name=hooks`, {
      method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'text/csv' }, body: CSV,
    });
    expect(res.status).toBe(202);
    return (await json(res)).batch_id as string;
  }
  const about = (pred: (r: ReceivedDelivery) => boolean, timeoutMs = 20_000) => {
    const until = Date.now() + timeoutMs;
    return (async () => {
      for (;;) {
        const found = receiver.received.filter(pred);
        if (found.length) return found;
        if (Date.now() > until) throw new Error('no such delivery');
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
  };

  it('When a batch completes, then batch.completed arrives once, signed, naming the batch', async () => {
    const { apiKey, accountId } = await s.newAccount(100);
    const secret = await subscribe(apiKey, ['batch.completed', 'batch.paused']);

    const batchId = await upload(apiKey);
    const [delivery] = await about((r) => r.body.data.batch_id === batchId);
    await new Promise((r) => setTimeout(r, 1_500));

    expect(delivery!.body).toMatchObject({ type: 'batch.completed', data: { batch_id: batchId, rows_total: 2 } });
    expect(verifySignature(secret, delivery!.raw, String(delivery!.headers['contact-validator-signature']))).toBe(true);
    expect(receiver.received.filter((r) => r.body.data.batch_id === batchId)).toHaveLength(1);
    expect(accountId).toBeTruthy();
  });

  it('When a batch runs out of credits, then batch.paused arrives, and an endpoint without that event gets nothing', async () => {
    const poor = await s.newAccount(0);
    await subscribe(poor.apiKey, ['batch.paused']);
    const other = await s.newAccount(0);
    await subscribe(other.apiKey, ['batch.completed']);

    const batchId = await upload(poor.apiKey);
    const [delivery] = await about((r) => r.body.data.batch_id === batchId);

    expect(delivery!.body).toMatchObject({ type: 'batch.paused', data: { batch_id: batchId, reason: 'credits_exhausted' } });
  });

  it('When a connector run fails, then connector.run.failed arrives naming the connector and the run', async () => {
    const { apiKey } = await s.newAccount(100);
    await subscribe(apiKey, ['connector.run.failed']);
    const created = await request(s, 'POST', '/v1/connectors', apiKey, {
      type: 'salesforce', name: 'Unreachable org', schedule: '0 3 * * *',
      settings: { login_url: 'http://127.0.0.1:1', api_version: '62.0', objects: ['Contact'] },
      credentials: { client_id: 'id', client_secret: 'secret' },
    });
    const connectorId = (await json(created)).connector_id as string;

    const started = await request(s, 'POST', `/v1/connectors/${connectorId}/runs`, apiKey);
    const runId = (await json(started)).run_id as string;
    const [delivery] = await about((r) => r.body.data.connector_id === connectorId);

    expect(delivery!.body).toMatchObject({ type: 'connector.run.failed', data: { connector_id: connectorId, run_id: runId } });
  });
});
