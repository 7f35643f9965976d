/**
 * The command line (docs/cli.md): one JSON object on stdout; errors as JSON on stderr with a non-zero exit.
 * The same environment variables as the service apply (DATABASE_URL chooses the database).
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { BatchRejected } from './batches/batches.js';
import { ConnectorInvalid } from './sync/connectors.js';
import { InvalidArgumentError, NotFoundError } from './billing/accounts.js';
import { loadConfig } from './config.js';
import { Database } from './db/data-source.js';
import { openBilling } from './service.js';

class UsageError extends Error {}

const USAGE = `usage:
  cli accounts create --name NAME
  cli keys create --account ID [--publishable --origins https://shop.example.com[,…] [--phone]]
  cli keys list --account ID
  cli keys revoke --key KEY_ID
  cli credits buy --account ID --pack N
  cli credits grant --account ID --credits N [--expires-in-days D]
  cli credits show --account ID
  cli reference import --format usps-zip4|usps-city-state|openaddresses|nar [--sample] FILE
  cli reference status
  cli batch run --account ID FILE --out OUT.csv [--smtp false]
  cli connectors add --account ID --file CONNECTOR.json
  cli connectors list --account ID
  cli connectors run --connector ID
  cli backup --to FILE
  cli migrate`;

type Options = Record<string, string | boolean | undefined>;

function required(options: Options, name: string): string {
  const value = options[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

function wholeNumber(options: Options, name: string): number {
  const raw = required(options, name);
  if (!/^\d+$/.test(raw)) throw new UsageError(`--${name} must be a whole number`);
  return Number(raw);
}

async function run(argv: string[]): Promise<unknown> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      name: { type: 'string' },
      account: { type: 'string' },
      key: { type: 'string' },
      pack: { type: 'string' },
      credits: { type: 'string' },
      'expires-in-days': { type: 'string' },
      format: { type: 'string' },
      sample: { type: 'boolean' },
      publishable: { type: 'boolean' },
      origins: { type: 'string' },
      phone: { type: 'boolean' },
      out: { type: 'string' },
      to: { type: 'string' },
      file: { type: 'string' },
      connector: { type: 'string' },
      smtp: { type: 'string' },
    },
  });
  const [group, action, ...rest] = positionals;
  const command = `${group ?? ''} ${action ?? ''}`.trim();
  const config = loadConfig();
  const db = await Database.open(config.databaseUrl);
  try {
    const { accounts } = await openBilling(config, db);
    switch (command) {
      case 'accounts create':
        return await accounts.create(required(values, 'name'));
      case 'keys create':
        return values.publishable
          ? await accounts.createKey(required(values, 'account'), {
            origins: required(values, 'origins').split(',').map((o) => o.trim()).filter(Boolean), phone: values.phone === true,
          })
          : await accounts.createKey(required(values, 'account'));
      case 'keys list':
        return { keys: await accounts.listKeys(required(values, 'account')) };
      case 'keys revoke':
        return await accounts.revokeKey(required(values, 'key'));
      case 'credits buy':
        return await accounts.buyPack(required(values, 'account'), wholeNumber(values, 'pack'));
      case 'credits grant':
        return await accounts.grantCredits(
          required(values, 'account'),
          wholeNumber(values, 'credits'),
          values['expires-in-days'] === undefined ? undefined : wholeNumber(values, 'expires-in-days'),
        );
      case 'credits show':
        return await accounts.credits(required(values, 'account'));
      case 'reference import': {
        const file = rest[0];
        if (!file) throw new UsageError('reference import needs a FILE');
        const { importReferenceFile } = await import('./db/reference-store.js');
        return await importReferenceFile(db, required(values, 'format') as never, file, { sample: values.sample === true });
      }
      case 'reference status': {
        const { referenceStatus } = await import('./db/reference-store.js');
        return await referenceStatus(db);
      }
      case 'batch run': {
        const file = rest[0];
        if (!file) throw new UsageError('batch run needs a FILE');
        const smtp = values.smtp ?? 'true';
        if (smtp !== 'true' && smtp !== 'false') throw new UsageError('--smtp must be true or false');
        if (!fs.existsSync(file)) throw new UsageError(`no such file: ${file}`);
        const { runBatchCommand } = await import('./batch-command.js');
        return await runBatchCommand(config, db, { account: required(values, 'account'), file, out: required(values, 'out'), smtp: smtp === 'true' });
      }
      case 'connectors add':
      case 'connectors list':
      case 'connectors run': {
        const args: { account?: string; file?: string; connector?: string } = action === 'run'
          ? { connector: required(values, 'connector') }
          : { account: required(values, 'account'), ...(action === 'add' ? { file: required(values, 'file') } : {}) };
        if (args.file && !fs.existsSync(args.file)) throw new UsageError(`no such file: ${args.file}`);
        const { runConnectorCommand } = await import('./connector-command.js');
        return await runConnectorCommand(config, db, action, args);
      }
      case 'backup': {
        // SQLite's online backup (better-sqlite3): a consistent copy while the service keeps writing.
        if (db.dialect !== 'sqlite') throw new UsageError('backup copies an SQLite database; back PostgreSQL up with pg_dump or its base backups');
        const to = required(values, 'to');
        if (fs.existsSync(to)) throw new UsageError(`${to} exists already`);
        const { totalPages } = await db.sqlite.backup(to);
        return { backup: to, pages: totalPages, bytes: fs.statSync(to).size };
      }
      case 'migrate':
        return { migrated: true, database: db.dialect };
      default:
        throw new UsageError(command ? `unknown command "${command}"` : 'no command given');
    }
  } finally {
    await db.close();
  }
}

run(process.argv.slice(2)).then(
  (result) => {
    process.stdout.write(`${JSON.stringify(result)}\n`);
  },
  (err: Error) => {
    const kind =
      err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') ? 'usage'
        : err instanceof NotFoundError ? 'not_found'
          : err instanceof InvalidArgumentError ? 'invalid_argument'
            : err instanceof BatchRejected ? 'invalid_csv'
              : err instanceof ConnectorInvalid ? 'invalid_argument'
                : (err as { kind?: string }).kind ?? 'error';
    const out: Record<string, string> = { error: kind, message: err.message };
    if (kind === 'usage') out.usage = USAGE;
    process.stderr.write(`${JSON.stringify(out)}\n`);
    process.exitCode = kind === 'usage' ? 2 : 1;
  },
);
