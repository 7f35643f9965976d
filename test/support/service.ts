/** The vitest face of the quiet service (test/support/quiet-service.ts): accounts on demand, JSON over HTTP, one per describe. */
import { afterAll, beforeAll } from 'vitest';
import type { RunningService } from '../../src/service.js';
import { fundAccount, startQuietService, type FundedAccount, type QuietService } from './quiet-service.js';

export interface TestService extends QuietService {
  /** A new account with `credits` usable credits (the free grant is off) and its API key. */
  newAccount(credits?: number, name?: string): Promise<FundedAccount>;
  post(path: string, body: unknown, init?: { key?: string; headers?: Record<string, string> }): Promise<Response>;
  get(path: string, key?: string): Promise<Response>;
}

/** The real service in-process on port 0, on `databaseUrl`, its batch files in a temporary folder (never ./data). */
export async function startTestService(databaseUrl: string, env: Record<string, string> = {}): Promise<TestService> {
  const service = await startQuietService({ database: databaseUrl, env });
  return {
    ...service,
    newAccount: (credits = 100, name = 'Test account') => fundAccount(service, name, credits),
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
