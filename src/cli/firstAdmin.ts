// The command the server prints on an empty database, ready to paste into a POSIX shell: the CLI in the form the
// README documents (`node <checkout>/src/bin/forgegraph.js`, which installs nothing), the server's database and
// data directory, and every value quoted where the shell would read it otherwise.
import path from 'node:path';
import { redactUrl, type Config } from '../config.ts';
import { ROOT } from '../paths.ts';

/** The password in the printed command, to be replaced; the CLI refuses it (see main.ts), so it never becomes one. */
export const PASSWORD_PLACEHOLDER = 'CHANGE-ME';

/** Single-quotes a value for a POSIX shell when it needs it. */
function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * The environment assignments that make the command open the server's database from any directory:
 * DATABASE_URL when set (its password left for the user to fill in), and the absolute DATA_DIR.
 */
function cliEnvironment(config: Config, env: NodeJS.ProcessEnv): string[] {
  const parts: string[] = [];
  if (env.DATABASE_URL) parts.push(`DATABASE_URL=${shellQuote(redactUrl(env.DATABASE_URL).replace(':***@', ':<password>@'))}`);
  if (!env.DATABASE_URL || env.DATA_DIR) parts.push(`DATA_DIR=${shellQuote(config.dataDir)}`);
  return parts;
}

/** The lines that say how to create the first administrator. */
export function firstAdminHint(config: Config, env: NodeJS.ProcessEnv = process.env): string {
  const command = [
    ...cliEnvironment(config, env),
    'node',
    shellQuote(path.join(ROOT, 'src/bin/forgegraph.js')),
    'admin user create --username root',
    // Quoted although it need not be: the password typed over it keeps its quotes.
    `--password '${PASSWORD_PLACEHOLDER}'`,
    '--email root@example.com --admin --must-change-password=false',
  ].join(' ');
  return (
    `\nNo users yet. Create the first administrator with this command, ${PASSWORD_PLACEHOLDER} replaced by a password of at least ${config.minPasswordLength} characters:\n` +
    `  ${command}\n\n`
  );
}
