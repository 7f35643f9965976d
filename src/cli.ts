/**
 * The command line (docs in ./cli/commands.ts and `cli --help`): one JSON object on stdout; errors as JSON on stderr
 * with a non-zero exit, always its last line; help as plain text on stdout. A usage error puts the list of commands
 * before its JSON, as text for the person who typed it (issue 52.7). The same environment variables as the service
 * apply (DATABASE_URL chooses the database), `.env` too.
 */
import { parseArgs } from 'node:util';
import { findCommand, OPTIONS, UsageError } from './cli/commands.js';
import { commandHelp, overview, usageList } from './cli/help.js';

const HINT = 'run "cli --help" for the commands and their options';

type Answer = { json: unknown } | { text: string };

async function run(argv: string[]): Promise<Answer> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, strict: true, options: OPTIONS });
  if (positionals[0] === 'help' || values.help) {
    // `help COMMAND`, `COMMAND --help`: a command's name is its first two words (`batch run FILE --help`).
    const words = (positionals[0] === 'help' ? positionals.slice(1) : positionals).slice(0, 2);
    const text = words.length === 0 ? overview() : commandHelp(words);
    if (text === undefined) throw new UsageError(`unknown command "${words.join(' ')}"`);
    return { text };
  }
  const found = findCommand(positionals);
  if (!found) throw new UsageError(positionals.length ? `unknown command "${positionals.slice(0, 2).join(' ')}"` : 'no command given');
  const { runCommand } = await import('./cli/run-command.js');
  return { json: await runCommand(found.command, values, found.files) };
}

run(process.argv.slice(2)).then(
  (answer) => {
    process.stdout.write('text' in answer ? answer.text : `${JSON.stringify(answer.json)}\n`);
  },
  async (err: Error) => {
    const usage = err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    const kind = usage ? 'usage' : (await import('./cli/run-command.js')).errorKind(err);
    const out = { error: kind, message: usage ? `${err.message}; ${HINT}` : err.message };
    process.stderr.write(`${usage ? `${usageList()}\n` : ''}${JSON.stringify(out)}\n`);
    process.exitCode = usage ? 2 : 1;
  },
);
