/**
 * The commands of the command line, each one declaration: its name, arguments, what it does, what each option means,
 * and how it runs. Help (./help.ts) and dispatch (../cli.ts) read this table. Modules that only some commands need are
 * imported by those commands, so that `--help` and the account commands load little.
 */
import fs from 'node:fs';
import type { Accounts } from '../billing/accounts.js';
import type { Config } from '../config.js';
import type { Database } from '../db/data-source.js';

/** A wrong invocation: answered as `{"error": "usage", …}` with exit status 2. */
export class UsageError extends Error {}

/** Every option any command takes (node:util parseArgs); a command reads the ones its `options` describe. */
export const OPTIONS = {
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
  test: { type: 'boolean' },
  out: { type: 'string' },
  to: { type: 'string' },
  file: { type: 'string' },
  connector: { type: 'string' },
  smtp: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export type Options = Record<string, string | boolean | undefined>;

export interface CommandContext {
  config: Config;
  db: Database;
  accounts: Accounts;
  options: Options;
  /** The positional arguments after the command's name (FILE). */
  files: string[];
}

export interface Command {
  /** As typed: `credits grant`. */
  name: string;
  /** Its arguments, in the usual notation: `--account ID --credits N [--expires-in-days D]`. */
  synopsis: string;
  /** One line: what it does and what it answers. */
  summary: string;
  /** Each argument of the synopsis and what it means. */
  options: Record<string, string>;
  run(context: CommandContext): Promise<unknown>;
}

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

const ACCOUNT = { '--account ID': 'the account (acct_…)' };

async function connectorCommand({ config, db, options }: CommandContext, action: 'add' | 'list' | 'run' | 'check') {
  const args: { account?: string; file?: string; connector?: string } = action === 'run' || action === 'check'
    ? { connector: required(options, 'connector') }
    : { account: required(options, 'account'), ...(action === 'add' ? { file: required(options, 'file') } : {}) };
  if (args.file && !fs.existsSync(args.file)) throw new UsageError(`no such file: ${args.file}`);
  const { runConnectorCommand } = await import('../connector-command.js');
  return runConnectorCommand(config, db, action, args);
}

export const COMMANDS: readonly Command[] = [
  {
    name: 'accounts create', synopsis: '--name NAME',
    summary: 'Creates an account with its first secret API key and the free credits: {"account_id", "api_key", "balance"}.',
    options: { '--name NAME': 'the account\'s name' },
    run: ({ accounts, options }) => accounts.create(required(options, 'name')),
  },
  {
    name: 'keys create', synopsis: '--account ID [--test | --publishable --origins URL[,URL…] [--phone]]',
    summary: 'Creates an API key, shown this once: {"key_id", "api_key"}.',
    options: {
      ...ACCOUNT,
      '--test': 'a test key (cv_test_…): validates with network checks off and charges nothing',
      '--publishable': 'a publishable key (cv_pub_…) for web pages instead of a secret one',
      '--origins URL[,URL…]': 'the pages\' origins a publishable key answers (https://shop.example.com)',
      '--phone': 'a publishable key may check phone numbers too',
    },
    run: ({ accounts, options }) => (options.publishable
      ? accounts.createKey(required(options, 'account'), {
        origins: required(options, 'origins').split(',').map((o) => o.trim()).filter(Boolean), phone: options.phone === true,
      }, { test: options.test === true })
      : accounts.createKey(required(options, 'account'), undefined, { test: options.test === true })),
  },
  {
    name: 'keys list', synopsis: '--account ID',
    summary: 'Lists the account\'s keys, without their secrets: {"keys": […]}.',
    options: ACCOUNT,
    run: async ({ accounts, options }) => ({ keys: await accounts.listKeys(required(options, 'account')) }),
  },
  {
    name: 'keys revoke', synopsis: '--key KEY_ID',
    summary: 'Revokes a key at once: {"key_id", "revoked_at"}.',
    options: { '--key KEY_ID': 'the key (key_…), as keys list shows it' },
    run: ({ accounts, options }) => accounts.revokeKey(required(options, 'key')),
  },
  {
    name: 'credits buy', synopsis: '--account ID --pack N',
    summary: 'Records a credit pack bought outside Stripe: the new grant.',
    options: { ...ACCOUNT, '--pack N': 'the pack\'s size in credits (20000, 50000, 100000, 250000 or 500000)' },
    run: ({ accounts, options }) => accounts.buyPack(required(options, 'account'), wholeNumber(options, 'pack')),
  },
  {
    name: 'credits grant', synopsis: '--account ID --credits N [--expires-in-days D]',
    summary: 'Gives an account credits (support, trials): the new grant.',
    options: { ...ACCOUNT, '--credits N': 'how many credits', '--expires-in-days D': 'they expire after D days (365)' },
    run: ({ accounts, options }) => accounts.grantCredits(
      required(options, 'account'),
      wholeNumber(options, 'credits'),
      options['expires-in-days'] === undefined ? undefined : wholeNumber(options, 'expires-in-days'),
    ),
  },
  {
    name: 'credits show', synopsis: '--account ID',
    summary: 'The account\'s balance and its grants: {"balance", "grants": […]}.',
    options: ACCOUNT,
    run: ({ accounts, options }) => accounts.credits(required(options, 'account')),
  },
  {
    name: 'reference import', synopsis: '--format nad|openaddresses|nar|tiger-addrfeat|usps-zip4|usps-city-state [--sample] FILE',
    summary: 'Loads US and Canadian delivery points into the database: counts of records read, loaded, rejected.',
    options: {
      '--format F': 'the file\'s kind: nad, openaddresses, nar, tiger-addrfeat, usps-zip4 or usps-city-state (docs/reference-data.md)',
      '--sample': 'the file holds some addresses of its streets, not all: its points deny no other number',
      FILE: 'the file to load (tiger-addrfeat: the county .zip, or its .shp beside its .dbf); an interrupted import of it goes on',
    },
    run: async ({ config, db, options, files }) => {
      const file = files[0];
      if (!file) throw new UsageError('reference import needs a FILE');
      const { importReferenceFile } = await import('../db/reference-import.js');
      const result = await importReferenceFile(db, required(options, 'format') as never, file, { sample: options.sample === true });
      // The new data's index is built here, in the importing process, so that the running instances of this machine
      // only open it (one built by an instance itself shares its CPU with the requests it answers).
      const { openReference, referenceIndexVersion } = await import('../db/reference-index-build.js');
      const index = await openReference(db, await referenceIndexVersion(db), config.referenceIndex);
      index.close();
      return { ...result, index: index.kept };
    },
  },
  {
    name: 'reference status', synopsis: '',
    summary: 'The reference data the database holds and the imports that brought it.',
    options: {},
    run: async ({ db }) => (await import('../db/reference-import.js')).referenceStatus(db),
  },
  {
    name: 'batch run', synopsis: '--account ID FILE --out OUT.csv [--smtp false]',
    summary: 'Checks a CSV file in the foreground (progress on stderr), writes the result file: the batch.',
    options: {
      ...ACCOUNT, FILE: 'the CSV file to check (docs/batches.md)', '--out OUT.csv': 'where the checked file is written',
      '--smtp false': 'skip the mailbox check over SMTP (true)',
    },
    run: async ({ config, db, options, files }) => {
      const file = files[0];
      if (!file) throw new UsageError('batch run needs a FILE');
      const smtp = options.smtp ?? 'true';
      if (smtp !== 'true' && smtp !== 'false') throw new UsageError('--smtp must be true or false');
      if (!fs.existsSync(file)) throw new UsageError(`no such file: ${file}`);
      const { runBatchCommand } = await import('../batch-command.js');
      return runBatchCommand(config, db, { account: required(options, 'account'), file, out: required(options, 'out'), smtp: smtp === 'true' });
    },
  },
  {
    name: 'connectors add', synopsis: '--account ID --file CONNECTOR.json',
    summary: 'Adds a connector (Salesforce, Shopify) from its settings: the connector.',
    options: { ...ACCOUNT, '--file CONNECTOR.json': 'the body POST /v1/connectors takes (docs/connectors.md)' },
    run: (context) => connectorCommand(context, 'add'),
  },
  {
    name: 'connectors list', synopsis: '--account ID',
    summary: 'Lists the account\'s connectors: {"connectors": […]}.',
    options: ACCOUNT,
    run: (context) => connectorCommand(context, 'list'),
  },
  {
    name: 'connectors run', synopsis: '--connector ID',
    summary: 'Runs one sync in the foreground (progress on stderr): the run.',
    options: { '--connector ID': 'the connector (con_…)' },
    run: (context) => connectorCommand(context, 'run'),
  },
  {
    name: 'connectors check', synopsis: '--connector ID',
    summary: 'Checks credentials, fields, permissions and webhooks before a first run: {"ok", "problems": […]}.',
    options: { '--connector ID': 'the connector (con_…)' },
    run: (context) => connectorCommand(context, 'check'),
  },
  {
    name: 'backup', synopsis: '--to FILE',
    summary: 'Copies the SQLite database while the service keeps writing: {"backup", "pages", "bytes"}.',
    options: { '--to FILE': 'the copy; must not exist yet' },
    run: async ({ db, options }) => {
      // SQLite's online backup (better-sqlite3): a consistent copy while the service keeps writing.
      if (db.dialect !== 'sqlite') throw new UsageError('backup copies an SQLite database; back PostgreSQL up with pg_dump or its base backups');
      const to = required(options, 'to');
      if (fs.existsSync(to)) throw new UsageError(`${to} exists already`);
      const { totalPages } = await db.sqlite.backup(to);
      return { backup: to, pages: totalPages, bytes: fs.statSync(to).size };
    },
  },
  {
    name: 'migrate', synopsis: '',
    summary: 'Brings the database\'s tables up to date (the service does it at start too): {"migrated", "database"}.',
    options: {},
    run: async ({ db }) => ({ migrated: true, database: db.dialect }),
  },
];

/** The command the positional arguments name (the first two words: `credits grant`, or one: `backup`), and the rest. */
export function findCommand(positionals: readonly string[]): { command: Command; files: string[] } | undefined {
  const command = COMMANDS.find((c) => c.name === positionals.slice(0, 2).join(' '));
  return command && { command, files: positionals.slice(2) };
}
