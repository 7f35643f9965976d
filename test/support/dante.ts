/**
 * A real SOCKS5 server on 127.0.0.1 for the egress tests: Dante (Debian's dante-server, /usr/sbin/danted), started
 * with a generated configuration on a free loopback port. Its username method (RFC 1929) checks the system's password
 * database, so the suite makes a system account for it (only as root, as CI runs: .ci/run installs dante-server) with
 * a password made once per machine, kept in a folder only root may use; `blockedPorts` are refused by a rule (SOCKS5
 * reply 2), as a proxy whose provider closes port 25 would.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { binary, type Prerequisite } from './prerequisites.js';

export const DANTED = '/usr/sbin/danted';
const ACCOUNT = 'cvsockstest';

export const DANTE_SERVER: Prerequisite[] = [
  binary(DANTED, 'apt-get install -y dante-server; .ci/run installs it'),
  {
    what: 'root (Dante checks usernames against the system accounts; the suite makes one)',
    present: process.getuid?.() === 0,
    howToGet: 'run the suite as root, as CI does',
  },
];

export interface DanteServer {
  host: '127.0.0.1';
  port: number;
  username: string;
  password: string;
  /** `socks5://user:password@127.0.0.1:port`, or with the password given. */
  url(password?: string): string;
  close(): Promise<void>;
}

let accountPassword: string | undefined;

const PASSWORD = /^[0-9a-f]{24}$/;

/**
 * The folder that holds the shared password: made by this user (root) and writable by it alone. In the shared /tmp,
 * anything another user put at its place first (a folder of theirs, one others may write, a symlink) is refused: what
 * such a file says would be fed to chpasswd as root (a line `root:…` in it would set root's password), and a draft
 * written through a planted symlink would overwrite the file it points to.
 */
export function privateFolder(dir: string): string {
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const stat = fs.lstatSync(dir);
  if (!stat.isDirectory() || stat.uid !== process.getuid?.() || (stat.mode & 0o077) !== 0) {
    throw new Error(`${dir} is not a folder of this user that only it may use: refusing to keep the test account's password there`);
  }
  return dir;
}

/**
 * The password every worker of this machine shares, in `dir` (a privateFolder): made once (linked into place in one
 * step, so a second worker reads the first one's whole password or makes its own), and only ever 24 hex digits.
 */
export function sharedPassword(dir: string): { password: string; made: boolean } {
  const file = path.join(privateFolder(dir), 'password');
  let made = false;
  if (!fs.existsSync(file)) {
    const draft = `${file}.${process.pid}`;
    fs.writeFileSync(draft, randomBytes(12).toString('hex'), { mode: 0o600, flag: 'wx' });
    try {
      fs.linkSync(draft, file);
      made = true;
    } catch {
      // another worker made it first: its password is the one
    } finally {
      fs.rmSync(draft, { force: true });
    }
  }
  const password = fs.readFileSync(file, 'utf8');
  if (!PASSWORD.test(password)) throw new Error(`${file} holds no password this suite made: remove it`);
  return { password, made };
}

/**
 * The account Dante's username method checks, and its password (sharedPassword): test files run in parallel workers
 * and each may start Dante. The password is set only by its maker or when the account is new: two workers never set
 * different ones under each other's running proxies. The account has no home and no login shell.
 */
function ensureAccount(): string {
  if (accountPassword) return accountPassword;
  const { password, made } = sharedPassword(path.join(os.tmpdir(), `${ACCOUNT}-secret`));
  let created = false;
  if (!accountExists()) {
    try {
      execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', ACCOUNT], { stdio: 'ignore' });
      created = true;
    } catch (error) {
      if (!accountExists()) throw error;
    }
  }
  if (made || created) execFileSync('chpasswd', [], { input: `${ACCOUNT}:${password}\n` });
  accountPassword = password;
  return password;
}

function accountExists(): boolean {
  try {
    execFileSync('id', [ACCOUNT], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function waitForPort(port: number, child: ChildProcess, log: () => string): Promise<void> {
  for (const until = Date.now() + 10_000; Date.now() < until;) {
    if (child.exitCode !== null) throw new Error(`danted exited (${child.exitCode}): ${log()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: '127.0.0.1', port });
      socket.once('connect', () => { socket.destroy(); resolve(true); });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`danted did not listen on ${port}: ${log()}`);
}

export async function startDante(options: { blockedPorts?: number[] } = {}): Promise<DanteServer> {
  const password = ensureAccount();
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cv-dante-'));
  const config = [
    'logoutput: stderr',
    `internal: 127.0.0.1 port = ${port}`,
    'external: 127.0.0.1',
    'socksmethod: username',
    'clientmethod: none',
    'user.privileged: root',
    'user.unprivileged: nobody',
    'client pass { from: 127.0.0.0/8 to: 0.0.0.0/0 }',
    ...(options.blockedPorts ?? []).map((p) => `socks block { from: 0.0.0.0/0 to: 0.0.0.0/0 port = ${p} command: connect }`),
    'socks pass { from: 127.0.0.0/8 to: 0.0.0.0/0 command: connect }',
    '',
  ].join('\n');
  fs.writeFileSync(path.join(dir, 'danted.conf'), config);
  // -N 1: one negotiator process is plenty on loopback; -p: its pid file in our folder, not /run.
  const child = spawn(DANTED, ['-f', path.join(dir, 'danted.conf'), '-p', path.join(dir, 'danted.pid'), '-N', '1'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => { stderr = (stderr + chunk.toString()).slice(-4000); });
  await waitForPort(port, child, () => stderr);
  return {
    host: '127.0.0.1',
    port,
    username: ACCOUNT,
    password,
    url: (pass = password) => `socks5://${ACCOUNT}:${encodeURIComponent(pass)}@127.0.0.1:${port}`,
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
