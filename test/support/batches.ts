/** Uploading a CSV batch and waiting for it, over real HTTP, as the batch tests do. */
import type { TestService } from './service.js';

export async function upload(
  service: TestService, key: string, body: string | Buffer, { query = '', type = 'text/csv' } = {},
): Promise<Response> {
  return fetch(`${service.url}/v1/batches${query}`, {
    method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': type }, body,
  });
}

export async function waitForStatus(service: TestService, key: string, id: string, statuses: string[], timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const batch = (await (await service.get(`/v1/batches/${id}`, key)).json()) as Record<string, unknown>;
    if (statuses.includes(String(batch.status))) return batch;
    if (Date.now() > until) throw new Error(`batch ${id} still ${batch.status} (${batch.rows_done}/${batch.rows_total})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
