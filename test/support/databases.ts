/**
 * The databases every storage test runs against: a fresh SQLite file, and a fresh database on the real PostgreSQL
 * server named by TEST_DATABASE_URL_POSTGRES (.ci/run starts one). On CI a missing PostgreSQL is an error, not a skip.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { POSTGRES_SERVER, prerequisites } from './prerequisites.js';

export interface TestDatabase {
  name: 'sqlite' | 'postgres';
  /** Creates an empty database and returns its DATABASE_URL. */
  create(): Promise<string>;
  /** Drops every database this process created. */
  dropAll(): Promise<void>;
}

const postgresAdminUrl = process.env.TEST_DATABASE_URL_POSTGRES;
const havePostgres = prerequisites('the PostgreSQL variants of the storage tests', POSTGRES_SERVER);

function sqlite(): TestDatabase {
  const dirs: string[] = [];
  return {
    name: 'sqlite',
    async create() {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cv-test-'));
      dirs.push(dir);
      return `sqlite:${path.join(dir, 'test.sqlite')}`;
    },
    async dropAll() {
      for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function postgres(adminUrl: string): TestDatabase {
  const created: string[] = [];
  const admin = async <T>(work: (c: pg.Client) => Promise<T>) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  return {
    name: 'postgres',
    async create() {
      const name = `cv_test_${crypto.randomBytes(6).toString('hex')}`;
      await admin((c) => c.query(`CREATE DATABASE ${name}`));
      created.push(name);
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      return url.toString();
    },
    async dropAll() {
      const names = created.splice(0);
      if (names.length) await admin(async (c) => { for (const n of names) await c.query(`DROP DATABASE IF EXISTS ${n} WITH (FORCE)`); });
    },
  };
}

export const testDatabases: TestDatabase[] = [sqlite(), ...(havePostgres ? [postgres(postgresAdminUrl!)] : [])];
