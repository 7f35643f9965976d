/** `cli --help`, `cli help [COMMAND]` and `cli COMMAND --help`: plain text built from the table of commands. */
import { type Command, COMMANDS } from './commands.js';

const usageLine = (c: Command) => `cli ${c.name}${c.synopsis ? ` ${c.synopsis}` : ''}`;

/** Every command with its arguments, one a line: printed on stderr before a usage error's JSON. */
export function usageList(): string {
  return ['usage:', ...COMMANDS.map((c) => `  ${usageLine(c)}`)].join('\n');
}

/** Every command with its arguments and what it does. */
export function overview(): string {
  return [
    'contact-validator\'s command line: npm run -s cli -- COMMAND [OPTIONS], or contact-validator COMMAND [OPTIONS]',
    '',
    'Each command answers one JSON object on stdout; an error is a JSON object, the last line on stderr, and a non-zero',
    'exit (2: a usage error, after the list of commands).',
    'The service\'s environment variables apply (DATABASE_URL chooses the database).',
    '',
    'Commands:',
    ...COMMANDS.flatMap((c) => [`  ${usageLine(c)}`, `      ${c.summary}`]),
    '',
    'cli help COMMAND (or cli COMMAND --help) explains each option of a command.',
    '',
  ].join('\n');
}

/** A command's help, or each command of a group's (`help batch`, `help credits`); undefined when nothing has that name. */
export function commandHelp(words: readonly string[]): string | undefined {
  const name = words.join(' ');
  const matching = COMMANDS.filter((c) => c.name === name || c.name.startsWith(`${name} `));
  if (!name || matching.length === 0) return undefined;
  return matching.map((c) => {
    const flags = Object.keys(c.options);
    const width = Math.max(0, ...flags.map((f) => f.length));
    return [
      `usage: ${usageLine(c)}`,
      '',
      c.summary,
      ...(flags.length ? ['', ...flags.map((f) => `  ${f.padEnd(width)}  ${c.options[f]}`)] : []),
      '',
    ].join('\n');
  }).join('\n');
}
