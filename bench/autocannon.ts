/** autocannon (CommonJS, no bundled types): the small part of its API the benchmarks use. */
import { createRequire } from 'node:module';

export interface AutocannonRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface AutocannonOptions {
  url: string;
  connections: number;
  /** Seconds; requests still in flight at its end are dropped unanswered. */
  duration?: number;
  /** A number of requests instead of a duration: every one is answered (or errs) before the result. */
  amount?: number;
  requests: AutocannonRequest[];
  timeout?: number;
  /** Requests per second over all connections (a fixed load); absent: as fast as the server answers. */
  overallRate?: number;
}

export interface AutocannonResult {
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
  latency: { p50: number; p99: number; average: number; max: number };
  requests: { total: number; sent: number };
}

export const autocannon = createRequire(import.meta.url)('autocannon') as (opts: AutocannonOptions) => Promise<AutocannonResult>;
