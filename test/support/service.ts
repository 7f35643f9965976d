import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
/** Starts the real service in-process on port 0 and talks to it over HTTP. */
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { startService, type RunningService } from '../../src/service.js';

export interface TestService extends RunningService {
  /** A new account with `credits` usable credits (the free grant is off) and its API key. */
  newAccount(credits?: number, name?: string): Promise<{ accountId: string; apiKey: string; keyId: string }>;
  post(path: string, body: unknown, init?: { key?: string; headers?: Record<string, string> }): Promise<Response>;
  get(path: string, key?: string): Promise<Response>;
}

export const QUIET_ENV = {
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'silent',
  RATE_LIMIT_PER_MINUTE: '0',
  EMAIL_NETWORK_CHECKS: 'false',
  VALIDATION_BUDGET_MS: '1500',
  FREE_CREDITS: '0',
  SHUTDOWN_GRACE_MS: '2000',
};

export async function startTestService(databaseUrl: string, env: Record<string, string> = {}): Promise<TestService> {
  // Batch files of tests go to a temporary folder, never to ./data.
  const batchDir = env.BATCH_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'cv-batches-'));
  const config = loadConfig({ ...QUIET_ENV, DATABASE_URL: databaseUrl, BATCH_DIR: batchDir, ...env });
  const service = await startService(config, createLogger('silent'));
  return {
    ...service,
    async newAccount(credits = 100, name = 'Test account') {
      const created = await service.accounts.create(name);
      if (credits > 0) await service.accounts.grantCredits(created.account_id, credits);
      return { accountId: created.account_id, apiKey: created.api_key, keyId: created.key_id };
    },
    post(path, body, init = {}) {
      return fetch(service.url + path, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(init.key ? { authorization: `Bearer ${init.key}` } : {}),
          ...init.headers,
        },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
    },
    get(path, key) {
      return fetch(service.url + path, { headers: key ? { authorization: `Bearer ${key}` } : {} });
    },
  };
}

export async function problemOf(res: Response): Promise<Record<string, unknown>> {
  if (!res.headers.get('content-type')?.startsWith('application/problem+json')) {
    throw new Error(`expected application/problem+json, got ${res.headers.get('content-type')}: ${await res.text()}`);
  }
  return (await res.json()) as Record<string, unknown>;
}

/** The DATABASE_URL a running service uses, to start a second instance on the same database. */
export function databaseUrlOf(service: RunningService): string {
  const options = service.db.dataSource.options as { type: string; url?: string; database?: string };
  return options.type === 'postgres' ? options.url! : `sqlite:${options.database}`;
}

/**
 * One service per describe block, on a fresh database of the given kind, closed (and the database dropped) after it.
 * Returns a getter: the service exists only once beforeAll has run.
 */
export function useTestService(
  database: { create(): Promise<string>; dropAll(): Promise<void> },
  env: Record<string, string> = {},
): () => TestService {
  let service: TestService | undefined;
  beforeAll(async () => {
    service = await startTestService(await database.create(), env);
  });
  afterAll(async () => {
    await service?.close();
    await database.dropAll();
  });
  return () => service!;
}
