// The `forgegraph` command line. Each command imports its code when it runs (src/cli/), and the bundle is split
// there (src/bin/bundle.js): `--version` and `--help` load this file and the configuration only, `admin user …`
// the database and the user services, `serve` the whole server.
import { arch, platform } from 'node:os';
import path from 'node:path';
import { Command, InvalidArgumentError as CliArgumentError, Option } from 'commander';
import { describeDatabase, loadConfig, PACKAGE_VERSION, VERSION } from './config.ts';
import { ENVIRONMENT } from './environment.ts';
import { isDomainError } from './errors.ts';
import type { CreateUserFlags } from './cli/admin.ts';
import { PASSWORD_PLACEHOLDER } from './cli/firstAdmin.ts';

function parseBool(value: string | undefined): boolean {
  if (value === undefined || value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw new CliArgumentError('expected true or false');
}

/** The password policy, checked before opening the database so the message says what is needed. */
function checkPassword(password: string | undefined, minLength: number): string {
  if (!password) throw new Error(`--password is required (at least ${minLength} characters)`);
  if (password === PASSWORD_PLACEHOLDER)
    throw new Error(`replace ${PASSWORD_PLACEHOLDER} with a password of your own (at least ${minLength} characters)`);
  if (password.length < minLength) throw new Error(`password is too short: it needs at least ${minLength} characters`);
  return password;
}

const invocationHelp = [
  'In a checkout, run it as `node src/bin/forgegraph.js <command>` (`npm start` runs `serve` so), from any directory',
  "with the checkout's path. It runs in that one process, so SIGTERM and SIGINT reach the server or runner itself.",
  "(`npx forgegraph` would first install the checkout into npx's cache.)",
].join('\n');

const environmentHelp = [
  'Environment (the server and every command read the same variables):',
  ...ENVIRONMENT.map((v) => `  ${v.name.padEnd(13)} ${v.meaning}${v.default ? ` (default: ${v.default})` : ''}`),
].join('\n');

const program = new Command('forgegraph')
  .description('A self-hosted git forge with a Gitea-compatible REST API and a GraphQL graph.')
  .version(`forgegraph ${PACKAGE_VERSION} (Gitea API ${VERSION})`, '-v, --version', 'print the version')
  .addHelpText('afterAll', `\n${invocationHelp}\n\n${environmentHelp}\n`);
program
  .command('serve')
  .description('Run the server (applies pending migrations first). SIGTERM or SIGINT stops it gracefully (SHUTDOWN_DELAY).')
  .action(async () => (await import('./cli/serve.ts')).serve());
program
  .command('migrate')
  .description('Apply pending database migrations and exit.')
  .action(async () => {
    const config = loadConfig();
    const applied = await (await import('./cli/system.ts')).migrate(config);
    process.stderr.write(`Database: ${describeDatabase(config)}\n`);
    process.stdout.write(applied.length ? `Applied: ${applied.join(', ')}\n` : 'Database is up to date.\n');
  });

program
  .command('dump')
  .description(
    'Back up the database (a logical export that restores into SQLite or PostgreSQL), repositories, attachments and packages into a new directory (like `gitea dump`; archive it with tar).',
  )
  .requiredOption('--output <dir>', 'new or empty directory to write')
  .action(async (o: { output: string }) => (await import('./cli/backup.ts')).dump(o.output));
program
  .command('restore')
  .description(
    "Restore a `forgegraph dump` directory into a new database and data directory (DATABASE_URL, DATA_DIR), then point the repositories at this data directory's git hooks.",
  )
  .requiredOption('--input <dir>', 'directory written by `forgegraph dump`')
  .action(async (o: { input: string }) => (await import('./cli/backup.ts')).restore(o.input));

const admin = program.command('admin').description('Administration commands.');
const user = admin.command('user').description('Manage users.');
user
  .command('create')
  .description('Create a user (same flags as `gitea admin user create`).')
  .requiredOption('--username <name>', 'username')
  .requiredOption('--email <email>', 'e-mail address')
  .option('--password <password>', 'password')
  .option('--admin', 'make the user a site administrator', false)
  .option('--must-change-password [bool]', 'require a password change before the API can be used (default true)', parseBool, true)
  .option('--restricted', 'make the user restricted', false)
  .option('--access-token', 'also create an access token and print it', false)
  .option('--access-token-name <name>', 'name of that token', 'gitea-admin')
  .option('--access-token-scopes <scopes>', 'comma-separated scopes of that token', 'all')
  .action(async (o: CreateUserFlags & { password?: string }) => {
    const password = checkPassword(o.password, loadConfig().minPasswordLength);
    await (await import('./cli/admin.ts')).createUser(o, password);
  });
user
  .command('change-password')
  .description("Set a user's password.")
  .requiredOption('--username <name>', 'username')
  .requiredOption('--password <password>', 'new password')
  .option('--must-change-password [bool]', 'require another change before the API can be used (default true, as Gitea)', parseBool, true)
  .action(async (o: { username: string; password: string; mustChangePassword: boolean }) => {
    const password = checkPassword(o.password, loadConfig().minPasswordLength);
    await (await import('./cli/admin.ts')).changePassword(o, password);
  });
user
  .command('list')
  .description('List users.')
  .option('--admin', 'list only site administrators', false)
  .action(async (o: { admin: boolean }) => (await import('./cli/admin.ts')).listUsers(o));

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new CliArgumentError('expected a positive integer');
  return n;
}

function positiveNumber(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new CliArgumentError('expected a positive number');
  return n;
}

const builtinRunner = program
  .command('runner')
  .description('The built-in Actions runner: registers with a Forgegraph (or Gitea) instance and runs jobs on this host.');
interface RegisterFlags {
  instance: string;
  token: string;
  name?: string;
  labels: string;
  ephemeral: boolean;
  config?: string;
  file?: string;
}
/** `--file`, the old name of `--config` (hidden). */
const oldFileFlag = () => new Option('--file <file>').hideHelp();
const RUNNER_FILE_HELP =
  "the runner's state file, with its token (default: $RUNNER_FILE, else $XDG_CONFIG_HOME/forgegraph/runner.json, i.e. ~/.config/forgegraph/runner.json)";
builtinRunner
  .command('register')
  .description("Register with an instance using a registration token and write the runner's state file (mode 0600).")
  .requiredOption('--instance <url>', 'the instance, e.g. http://localhost:3000')
  .requiredOption('--token <token>', 'a registration token (POST /api/v1/admin/actions/runners/registration-token)')
  .option('--name <name>', 'runner name (default: the host name)')
  .option('--labels <labels>', 'comma-separated labels jobs match with runs-on (name or name:host)', `self-hosted,${platform()},${arch()}`)
  .option('--ephemeral', 'run one task only, then the instance forgets the runner', false)
  .option('--config <file>', RUNNER_FILE_HELP)
  .addOption(oldFileFlag())
  .action(async (o: RegisterFlags) => {
    const labels = o.labels
      .split(',')
      .map((l) => l.trim())
      .filter(Boolean);
    const [{ registerRunner }, { runnerFilePath }] = await Promise.all([
      import('./builtinRunner/register.ts'),
      import('./builtinRunner/runnerFile.ts'),
    ]);
    const file = runnerFilePath(o.config ?? o.file);
    const r = await registerRunner({ ...o, labels, file });
    process.stdout.write(`Runner ${r.name} (${r.uuid}) registered with ${r.address}; wrote ${file}\n`);
  });
interface PollFlags {
  config?: string;
  file?: string;
  workDir?: string;
  capacity: number;
  fetchInterval: number;
  once?: boolean;
}
const pollCommand = (name: string, description: string) =>
  builtinRunner
    .command(name)
    .description(description)
    .option('--config <file>', RUNNER_FILE_HELP)
    .addOption(oldFileFlag())
    .option('--work-dir <dir>', 'where task workspaces are made (default: $XDG_CACHE_HOME/forgegraph/runner-work/<runner uuid>)')
    .option('--capacity <n>', 'tasks run at once', positiveInt, 1)
    .option('--fetch-interval <seconds>', 'pause between FetchTask calls when idle', positiveNumber, 2);
const poll = async (o: PollFlags) => {
  const [{ runDaemon }, { runnerFilePath }] = await Promise.all([
    import('./builtinRunner/daemon.ts'),
    import('./builtinRunner/runnerFile.ts'),
  ]);
  await runDaemon({
    file: runnerFilePath(o.config ?? o.file),
    workDir: o.workDir === undefined ? undefined : path.resolve(o.workDir),
    capacity: o.capacity,
    fetchIntervalMs: Math.round(o.fetchInterval * 1000),
    maxTasks: o.once ? 1 : undefined,
    log: (line) => process.stderr.write(`${new Date().toISOString()} ${line}\n`),
  });
};
pollCommand('daemon', 'Declare to the instance, then fetch and run tasks until stopped (SIGINT/SIGTERM lets running tasks finish).').action(
  poll,
);
pollCommand('run', 'Like daemon, in the foreground; --once exits after one task.')
  .option('--once', 'exit after one task', false)
  .action(poll);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  const message = isDomainError(err) ? err.message : err instanceof Error ? err.message : String(err);
  process.stderr.write(`forgegraph: ${message}\n`);
  process.exit(1);
}
