/**
 * Throughput and latency of POST /v1/validate (address + e-mail + phone, network checks off) beside a bare Express 5
 * JSON endpoint, from one run on one machine:
 *
 *     npm run bench:validate [-- --duration 10 --connections 32 --rounds 3 --warmup 3 --profile --against REV --structure]
 *
 * (or BENCH_DURATION, BENCH_CONNECTIONS, BENCH_ROUNDS, BENCH_WARMUP, BENCH_PROFILE=1, BENCH_AGAINST=REV).
 *
 * `--structure` measures, beside the bare endpoint, the service's HTTP structure with no work behind it
 * (bench/servers/express-structure.ts) instead of the service: what the HTTP layer alone costs.
 *
 * `--against REV` measures a change instead: the baseline is then the service as it was at git revision REV (checked
 * out in a temporary worktree that shares this node_modules), in the same alternating rounds, so that a change's
 * effect is not lost in the machine's drift between two runs. The 0.6 target applies to the bare endpoint only.
 *
 * Each server runs in its own child process (bench/servers/*.ts, or the service as test/support/quiet-service.ts
 * starts it: network checks off, an account holding enough credits), so the load generator (autocannon, here) never shares
 * the server's event loop. After a warm-up, the targets alternate (baseline, service, baseline, service, …) and each
 * target reports the median of its rounds, so that drift on a shared, noisy machine falls on both alike. The bodies cycle
 * through a few dozen real US addresses (OpenAddresses, via EthanRBrown/rrad, public domain), e-mails and phone numbers.
 * The bench speaks only HTTP to the service: it knows nothing of the engines behind /v1/validate.
 *
 * Target: the service answers at least 0.6 of the baseline's requests per second, with no failed request. The verdict
 * is printed; the exit code is 0 whatever the numbers (this is a measurement), and non-zero only when a server fails to
 * start or to answer a first request correctly.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serviceChild } from './git-worktree.js';
import { validateBodies } from './validate-bodies.js';
import { autocannon, type AutocannonRequest, type AutocannonResult } from './autocannon.js';
import { startChild, stopChild } from '../test/support/service-child.js';
import { cpuSeconds } from './process-usage.js';

const TARGET_RATIO = 0.6;
/** The service child: an account holding enough credits for any run. */
const SERVICE = { accounts: [{ name: 'bench', credits: 50_000_000 }] };
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');


// ---------------------------------------------------------------------------------------------------------------------
// Settings

interface Settings {
  duration: number;
  warmup: number;
  connections: number;
  rounds: number;
  profile: boolean;
  /** A git revision whose service is the baseline, instead of the bare endpoint. */
  against: string | null;
  /** Measure the service's HTTP structure with no work behind it, instead of the service. */
  structure: boolean;
}

function readSettings(argv: string[], env: NodeJS.ProcessEnv): Settings {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(argv[i]);
    if (!m) throw new Error(`unexpected argument ${JSON.stringify(argv[i])}`);
    if (m[2] !== undefined) flags.set(m[1], m[2]);
    else if (m[1] === 'profile' || m[1] === 'structure') flags.set(m[1], '1');
    else if (i + 1 < argv.length) flags.set(m[1], argv[++i]);
    else throw new Error(`--${m[1]} needs a value`);
  }
  const known = new Set(['duration', 'warmup', 'connections', 'rounds', 'profile', 'against', 'structure']);
  for (const name of flags.keys()) if (!known.has(name)) throw new Error(`unknown flag --${name}`);
  const number = (name: string, fallback: number, min: number) => {
    const raw = flags.get(name) ?? env[`BENCH_${name.toUpperCase()}`];
    const value = raw === undefined || raw === '' ? fallback : Number(raw);
    if (!Number.isInteger(value) || value < min) throw new Error(`--${name} must be a whole number >= ${min}`);
    return value;
  };
  const profileRaw = flags.get('profile') ?? env.BENCH_PROFILE ?? '';
  return {
    duration: number('duration', 10, 1),
    warmup: number('warmup', 3, 0),
    connections: number('connections', 32, 1),
    rounds: number('rounds', 3, 1),
    profile: ['1', 'true', 'yes'].includes(profileRaw),
    against: flags.get('against') ?? (env.BENCH_AGAINST || null),
    structure: flags.has('structure'),
  };
}

// ---------------------------------------------------------------------------------------------------------------------
// Servers

interface Server {
  name: string;
  url: string;
  apiKey?: string;
  /** The HTTP structure alone (bench/servers/express-structure.ts): it answers no module. */
  structure?: boolean;
  child: ChildProcess;
  stderr: () => string;
}

async function startServer(name: string, { script, ...options }: { script: string; args?: string[]; nodeFlags?: string[] }): Promise<Server> {
  const { child, first, stderr } = await startChild(name, script, options);
  return {
    name, url: first.url as string, apiKey: first.api_key as string | undefined, structure: first.structure as boolean | undefined,
    child, stderr,
  };
}

function requestsFor(server: Server, bodies: string[]): AutocannonRequest[] {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (server.apiKey) headers.authorization = `Bearer ${server.apiKey}`;
  return bodies.map((body) => ({ method: 'POST', path: '/v1/validate', headers, body }));
}

/** One request by hand before any load: the target answers 200, and the service answers all three modules. */
async function preflight(server: Server, body: string): Promise<void> {
  const [request] = requestsFor(server, [body]);
  const res = await fetch(server.url + request.path, {
    method: 'POST', headers: request.headers, body, signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${server.name} answered ${res.status} to a first request: ${text.slice(0, 500)}`);
  if (server.apiKey && !server.structure) {
    const json = JSON.parse(text) as Record<string, unknown>;
    const missing = ['address', 'email', 'phone'].filter((m) => json[m] == null);
    if (missing.length) throw new Error(`${server.name} answered without ${missing.join(', ')}: ${text.slice(0, 500)}`);
  }
}

// ---------------------------------------------------------------------------------------------------------------------
// Measurement

interface Round {
  rps: number;
  /** Server CPU time (user + system) per successful request, in µs; NaN where /proc is not available. */
  cpuUs: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}


async function load(server: Server, requests: AutocannonRequest[], connections: number, duration: number): Promise<Round> {
  const cpuBefore = cpuSeconds(server.child.pid!);
  const r = await autocannon({ url: server.url, connections, duration, requests, timeout: 10 });
  const cpu = cpuSeconds(server.child.pid!) - cpuBefore;
  return {
    // Successful answers per second of wall time: a failed request does not count as throughput.
    rps: r['2xx'] / r.duration,
    cpuUs: r['2xx'] ? (cpu * 1e6) / r['2xx'] : NaN,
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
  };
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

function summarize(rounds: Round[]): Round {
  return {
    rps: median(rounds.map((r) => r.rps)),
    cpuUs: median(rounds.map((r) => r.cpuUs)),
    p50: median(rounds.map((r) => r.p50)),
    p99: median(rounds.map((r) => r.p99)),
    non2xx: rounds.reduce((s, r) => s + r.non2xx, 0),
    errors: rounds.reduce((s, r) => s + r.errors, 0),
  };
}

function table(rows: string[][]): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ')).join('\n');
}

const row = (name: string, r: Round) => [
  name, r.rps.toFixed(0), r.p50.toFixed(0), r.p99.toFixed(0), String(r.non2xx), String(r.errors),
  Number.isNaN(r.cpuUs) ? '-' : r.cpuUs.toFixed(0),
];
const HEADER = ['target', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors', 'server cpu µs/req'];

// ---------------------------------------------------------------------------------------------------------------------
// CPU profile of the service child (--profile): self time by package / source file, and inclusive time of the
// project's own functions, so that "where does the time go" has an answer from the same run.

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

function placeOf(url: string, fn: string): string {
  if (!url) return fn || '(anonymous)';
  if (url.startsWith('node:')) return url;
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + '/node_modules/'.length).split('/');
    return `npm:${rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]}`;
  }
  const file = url.startsWith('file://') ? fileURLToPath(url) : url;
  return path.relative(ROOT, file) || file;
}

function summarizeProfile(file: string, top = 15): string {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));

  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const idle = [...self].filter(([id]) => byId.get(id)!.callFrame.functionName === '(idle)').reduce((s, [, t]) => s + t, 0);
  const busy = total - idle;

  const selfByPlace = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const [id, t] of self) {
    const node = byId.get(id)!;
    if (node.callFrame.functionName === '(idle)') continue;
    const place = placeOf(node.callFrame.url, node.callFrame.functionName);
    selfByPlace.set(place, (selfByPlace.get(place) ?? 0) + t);
    // Charge this sample to every distinct project function on its stack (once each, even under recursion).
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const f = byId.get(cur)!.callFrame;
      const where = placeOf(f.url, f.functionName);
      if (!/^(src|migrations)\//.test(where)) continue;
      // Line numbers are those of tsx's transformed code, not of the source: name and file only.
      const key = `${f.functionName || '(anonymous)'} ${where}`;
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + t);
    }
  }
  const pct = (t: number) => `${((100 * t) / busy).toFixed(1)}%`;
  const ms = (t: number) => `${(t / 1000).toFixed(0)}`;
  const topOf = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top);
  return [
    `CPU profile of the service child: ${ms(total)} ms sampled, ${ms(busy)} ms busy (${((100 * busy) / total).toFixed(0)}%)`,
    '',
    'self time by place (share of busy time)',
    table([['place', 'ms', 'share'], ...topOf(selfByPlace).map(([k, t]) => [k, ms(t), pct(t)])]),
    '',
    'inclusive time of project functions (share of busy time)',
    table([['function', 'ms', 'share'], ...topOf(inclusive).map(([k, t]) => [k, ms(t), pct(t)])]),
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const settings = readSettings(process.argv.slice(2), process.env);
  const cpus = os.cpus();
  console.log(`node ${process.version} on ${os.platform()}/${os.arch()}, ${cpus.length} x ${cpus[0]?.model.trim() ?? 'unknown CPU'}`);
  console.log(
    `POST /v1/validate (address + email + phone, EMAIL_NETWORK_CHECKS=false, SQLite) vs ` +
      `${settings.against ? `the service at ${settings.against}` : 'bare Express 5 JSON endpoint'}` +
      `${settings.structure ? ' (measured: the service\'s HTTP structure with no work behind it)' : ''}; ` +
      `${settings.connections} connections, ${settings.warmup} s warm-up, ${settings.rounds} alternating rounds of ${settings.duration} s each`,
  );

  const profileDir = settings.profile ? fs.mkdtempSync(path.join(os.tmpdir(), 'cv-bench-prof-')) : undefined;
  if (profileDir) console.log('the service runs under --cpu-prof: its numbers are somewhat lower than without');
  const servers: Server[] = [];
  const stopAll = () => Promise.all(servers.map(stopChild));
  process.once('SIGINT', () => void stopAll().then(() => process.exit(130)));
  let baseline: Server;
  let service: Server;
  const bodies = validateBodies();
  try {
    baseline = settings.against
      ? await startServer('baseline', serviceChild(SERVICE, settings.against))
      : await startServer('baseline', { script: 'bench/servers/bare-express.ts' });
    servers.push(baseline);
    if (settings.structure && settings.against) throw new Error('--structure measures against the bare endpoint: no --against');
    const nodeFlags = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
    service = settings.structure
      ? await startServer('service', { script: 'bench/servers/express-structure.ts', nodeFlags })
      : await startServer('service', { ...serviceChild(SERVICE), nodeFlags });
    servers.push(service);
    for (const s of servers) await preflight(s, bodies[0]);
  } catch (err) {
    console.error(`bench:validate: ${(err as Error).message}`);
    await stopAll();
    return 1;
  }

  const targets = [
    {
      label: settings.against ? `service at ${settings.against}` : 'bare express',
      server: baseline, requests: requestsFor(baseline, bodies), rounds: [] as Round[],
    },
    {
      label: settings.structure ? 'HTTP structure, no work' : 'service /v1/validate',
      server: service, requests: requestsFor(service, bodies), rounds: [] as Round[],
    },
  ];

  const perRound: string[][] = [HEADER.map((h, i) => (i === 0 ? 'round' : h))];
  try {
    if (settings.warmup > 0) {
      for (const t of targets) {
        const w = await load(t.server, t.requests, settings.connections, settings.warmup);
        if (w.non2xx || w.errors) console.log(`warm-up of ${t.label}: ${w.non2xx} non-2xx, ${w.errors} errors`);
      }
    }
    for (let i = 1; i <= settings.rounds; i++) {
      for (const t of targets) {
        const r = await load(t.server, t.requests, settings.connections, settings.duration);
        t.rounds.push(r);
        perRound.push(row(`${i}: ${t.label}`, r));
      }
    }
  } finally {
    await stopAll();
  }

  // A server that died under load fails the run like one that never started.
  const crashed = servers.filter((s) => s.child.exitCode !== 0 && s.child.exitCode !== null);
  for (const s of crashed) console.error(`bench:validate: ${s.name} exited with ${s.child.exitCode}\n${s.stderr().trim()}`);

  const [base, svc] = targets.map((t) => summarize(t.rounds));
  const ratio = base.rps > 0 ? svc.rps / base.rps : 0;
  const failures = svc.non2xx + svc.errors + base.non2xx + base.errors;
  const pass = ratio >= (settings.against || settings.structure ? 0 : TARGET_RATIO) && failures === 0;

  console.log('');
  console.log('per round');
  console.log(table(perRound));
  console.log('');
  console.log(`median of ${settings.rounds} round(s) (non-2xx and errors: totals)`);
  console.log(table([HEADER, row(targets[0].label, base), row(targets[1].label, svc)]));
  console.log('');
  console.log(
    settings.against
      ? `ratio service/service at ${settings.against}: ${ratio.toFixed(2)} (above 1: faster now); failed requests: ${failures}`
      : settings.structure
      ? `ratio HTTP structure/baseline: ${ratio.toFixed(2)} (informational: the HTTP layer alone); failed requests: ${failures}`
      : `ratio service/baseline: ${ratio.toFixed(2)} (target >= ${TARGET_RATIO}); failed requests: ${failures} -> ${pass ? 'PASS' : 'FAIL'}`,
  );
  if (!Number.isNaN(svc.cpuUs) && !Number.isNaN(base.cpuUs)) {
    // Less sensitive to other load on a shared machine than req/s: what one request costs the server's own process.
    console.log(
      `server CPU per request: service ${svc.cpuUs.toFixed(0)} µs, baseline ${base.cpuUs.toFixed(0)} µs ` +
        `(ratio baseline/service ${(base.cpuUs / svc.cpuUs).toFixed(2)}; informational)`,
    );
  }

  if (profileDir) {
    // CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile: thread 0 is the main thread (others: tsx's loader, workers).
    const files = fs.readdirSync(profileDir).filter((f) => f.endsWith('.cpuprofile'));
    const main = files.find((f) => /\.\d+\.0\.\d+\.cpuprofile$/.test(f)) ?? files[0];
    console.log('');
    if (main) {
      const file = path.join(profileDir, main);
      console.log(summarizeProfile(file));
      console.log(`\nfull profile: ${file} (open in Chrome DevTools > Performance)`);
    } else {
      console.log(`no CPU profile was written in ${profileDir}`);
    }
  }
  return crashed.length ? 1 : 0;
}

process.exitCode = await main();
