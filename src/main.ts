import { arch, platform } from 'node:os';
import path from 'node:path';
import { Command, InvalidArgumentError as CliArgumentError, Option } from 'commander';
import { LoginThrottle } from './auth/loginThrottle.ts';
import { describeDatabase, ENVIRONMENT, loadConfig, PACKAGE_VERSION, redactUrl, VERSION, type Config } from './config.ts';
import { createDb, prepareDb, type Db } from './db/client.ts';
import { RepoLocks } from './db/repoLocks.ts';
import { dumpTo, restoreFrom } from './db/backup.ts';
import { runCronTask } from './services/cron/cron.ts';
import { deployMigrations, MigrationError } from './db/migrate/engine.ts';
import { isDomainError } from './errors.ts';
import { JobWorker } from './jobs/worker.ts';
import { readInstallation } from './db/installation.ts';
import { LiveBus } from './notify/liveBus.ts';
import { Notifier } from './notify/notifier.ts';
import { createSystemContext, type ServiceContext } from './services/context.ts';
import * as tokenService from './services/user/token.ts';
import * as userService from './services/user/user.ts';

/** Applies pending migrations, explaining any refusal in plain words. */
async function migrate(config: Config): Promise<string[]> {
  try {
    return await deployMigrations({ provider: config.dbProvider, url: config.databaseUrl });
  } catch (err) {
    if (err instanceof MigrationError) {
      const hint: Record<MigrationError['code'], string> = {
        MIGRATION_FAILED: 'A migration failed earlier on this database; restore a backup or repair it by hand, then start again.',
        MIGRATION_EDITED: 'An already-applied migration file was changed; restore it from version control.',
        DATABASE_NEWER: 'This database was migrated by a newer Forgegraph; run that version (or restore a backup).',
        ENGINE_ERROR: 'Check DATABASE_URL and that the database is reachable.',
      };
      throw new Error(`Database migration refused (${err.code}): ${err.message}\n${hint[err.code]}`, { cause: err });
    }
    throw err;
  }
}

/**
 * Says on stderr which database a command opened (stdout stays the command's output). A database the command
 * had to create is flagged: it is usually not the server's (the server prints the DATA_DIR/DATABASE_URL it uses).
 */
function announceDatabase(config: Config, applied: string[]): void {
  const created = applied.some((name) => name.endsWith('_init'));
  const note = created
    ? ' (new: created by this command; the server prints the DATA_DIR/DATABASE_URL it uses)'
    : applied.length
      ? ` (applied ${applied.length} migration(s))`
      : '';
  process.stderr.write(`Database: ${describeDatabase(config)}${note}\n`);
}

/** Single-quotes a value for a POSIX shell when it needs it. */
function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * The environment assignments that make `npx forgegraph …` open the server's database from any directory:
 * DATABASE_URL when set (its password left for the user to fill in), and the absolute DATA_DIR.
 */
function cliEnvironment(config: Config, env: NodeJS.ProcessEnv = process.env): string {
  const parts: string[] = [];
  if (env.DATABASE_URL) parts.push(`DATABASE_URL=${shellQuote(redactUrl(env.DATABASE_URL).replace(':***@', ':<password>@'))}`);
  if (!env.DATABASE_URL || env.DATA_DIR) parts.push(`DATA_DIR=${shellQuote(config.dataDir)}`);
  return parts.join(' ');
}

/** A migrated database and a system context for the admin commands (works while the server runs). */
async function withSystem<T>(fn: (cx: ServiceContext) => Promise<T>): Promise<T> {
  const config = loadConfig();
  announceDatabase(config, await migrate(config));
  const db: Db = createDb({ provider: config.dbProvider, url: config.databaseUrl });
  await prepareDb(db, config.dbProvider);
  const notifier = new Notifier((s, e, err) => process.stderr.write(`subscriber ${s} failed on ${e.type}: ${String(err)}\n`));
  // Jobs the commands enqueue are run by the server's workers (this process starts none).
  const log = (obj: object, msg: string) => process.stderr.write(`${msg} ${JSON.stringify(obj)}\n`);
  const jobs = new JobWorker(db, config.dbProvider, config.jobs, { debug: () => undefined, info: () => undefined, warn: log, error: log });
  const { lockClass } = await readInstallation(db);
  const repoLocks = new RepoLocks(config.dbProvider, config.databaseUrl, { lockClass, waitMs: config.repoLockTimeoutMs });
  try {
    return await fn(
      createSystemContext({
        db,
        config,
        notifier,
        jobs,
        live: new LiveBus(),
        repoLocks,
        loginThrottle: new LoginThrottle(config.loginThrottle),
      }),
    );
  } finally {
    await notifier.drain();
    await repoLocks.close();
    await db.$disconnect();
  }
}

function parseBool(value: string | undefined): boolean {
  if (value === undefined || value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw new CliArgumentError('expected true or false');
}

async function serve(): Promise<void> {
  const started = performance.now();
  const config = loadConfig();
  const applied = await migrate(config);
  const { buildApp } = await import('./app.ts');
  const app = await buildApp(config, { logger: true });
  const log = app.server.log;
  if (applied.length) log.info({ applied }, `applied ${applied.length} database migration(s)`);
  await app.server.listen({ port: config.port, host: config.host });
  await app.startBackground();
  void app.warmUp().catch((err: unknown) => log.error({ err }, 'GraphQL failed to load'));
  const ms = Math.round(performance.now() - started);
  log.info(
    `Forgegraph ${config.packageVersion} ready in ${ms} ms: ${config.rootUrl} (REST ${config.rootUrl}api/v1, GraphQL ${config.rootUrl}api/graphql, git ${config.rootUrl}{owner}/{repo}.git); database ${describeDatabase(config)}, data in ${config.dataDir}`,
  );
  if ((await app.deps.db.user.count({ where: { type: 'INDIVIDUAL' } })) === 0) {
    process.stdout.write(
      `\nNo users yet. Create the first administrator (the password needs at least ${config.minPasswordLength} characters) with:\n` +
        `  ${cliEnvironment(config)} npx forgegraph admin user create --username root --password <password> --email root@example.com --admin --must-change-password=false\n\n`,
    );
  }
  // Graceful shutdown: readiness fails, the listener closes, requests and git operations in flight finish, the
  // scheduler and the workers finish or release their work; a second signal or SHUTDOWN_TIMEOUT ends it at once.
  const stop = async (signal: string) => {
    log.info(`${signal}: shutting down (draining requests, git operations and jobs)`);
    const force = setTimeout(() => {
      log.error('shutdown timed out; exiting');
      process.exit(1);
    }, config.jobs.shutdownTimeoutMs + 30_000);
    force.unref();
    process.once('SIGTERM', () => process.exit(1));
    process.once('SIGINT', () => process.exit(1));
    await app.close();
    log.info('shutdown complete');
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

/** The password policy, checked before opening the database so the message says what is needed. */
function checkPassword(password: string | undefined, minLength: number): string {
  if (!password) throw new Error(`--password is required (at least ${minLength} characters)`);
  if (password.length < minLength) throw new Error(`password is too short: it needs at least ${minLength} characters`);
  return password;
}

const environmentHelp = [
  'Environment (the server and every command read the same variables):',
  ...ENVIRONMENT.map((v) => `  ${v.name.padEnd(13)} ${v.meaning}${v.default ? ` (default: ${v.default})` : ''}`),
].join('\n');

const program = new Command('forgegraph')
  .description('A self-hosted git forge with a Gitea-compatible REST API and a GraphQL graph.')
  .version(`forgegraph ${PACKAGE_VERSION} (Gitea API ${VERSION})`, '-v, --version', 'print the version')
  .addHelpText('afterAll', `\n${environmentHelp}\n`);
program.command('serve').description('Run the server (applies pending migrations first).').action(serve);
program
  .command('migrate')
  .description('Apply pending database migrations and exit.')
  .action(async () => {
    const config = loadConfig();
    const applied = await migrate(config);
    process.stderr.write(`Database: ${describeDatabase(config)}\n`);
    process.stdout.write(applied.length ? `Applied: ${applied.join(', ')}\n` : 'Database is up to date.\n');
  });

program
  .command('dump')
  .description(
    'Back up the database (a logical export that restores into SQLite or PostgreSQL), repositories, attachments and packages into a new directory (like `gitea dump`; archive it with tar).',
  )
  .requiredOption('--output <dir>', 'new or empty directory to write')
  .action(async (o: { output: string }) => {
    await withSystem(async (cx) => {
      const manifest = await dumpTo(cx.db, cx.config.dbProvider, cx.config.dataDir, path.resolve(o.output));
      const total = Object.values(manifest.rows).reduce((a, b) => a + b, 0);
      process.stdout.write(
        `Dumped ${total} rows of ${Object.keys(manifest.rows).length} tables and ${manifest.data.join(', ')} to ${path.resolve(o.output)}\n`,
      );
    });
  });
program
  .command('restore')
  .description(
    "Restore a `forgegraph dump` directory into a new database and data directory (DATABASE_URL, DATA_DIR), then point the repositories at this data directory's git hooks.",
  )
  .requiredOption('--input <dir>', 'directory written by `forgegraph dump`')
  .action(async (o: { input: string }) => {
    await withSystem(async (cx) => {
      const manifest = await restoreFrom(cx.db, cx.config.dbProvider, cx.config.dataDir, path.resolve(o.input));
      await runCronTask(cx, 'resync_all_hooks');
      const total = Object.values(manifest.rows).reduce((a, b) => a + b, 0);
      process.stdout.write(
        `Restored ${total} rows (dumped from ${manifest.provider} at ${manifest.createdAt}) and ${manifest.data.join(', ')} into ${cx.config.dataDir}\n`,
      );
    });
  });

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
  .action(
    async (o: {
      username: string;
      email: string;
      password?: string;
      admin: boolean;
      mustChangePassword: boolean;
      restricted: boolean;
      accessToken: boolean;
      accessTokenName: string;
      accessTokenScopes: string;
    }) => {
      const password = checkPassword(o.password, loadConfig().minPasswordLength);
      await withSystem(async (cx) => {
        await userService.createUser(cx, {
          username: o.username,
          email: o.email,
          password,
          admin: o.admin,
          mustChangePassword: o.mustChangePassword,
          restricted: o.restricted,
        });
        if (o.accessToken) {
          const created = await tokenService.createAccessToken(cx, {
            username: o.username,
            name: o.accessTokenName,
            scopes: o.accessTokenScopes.split(','),
          });
          process.stdout.write(`Access token was successfully created... ${created.secret}\n`);
        }
        process.stdout.write(`New user '${o.username}' has been successfully created!\n`);
      });
    },
  );
user
  .command('change-password')
  .description("Set a user's password.")
  .requiredOption('--username <name>', 'username')
  .requiredOption('--password <password>', 'new password')
  .option('--must-change-password [bool]', 'require another change before the API can be used (default true, as Gitea)', parseBool, true)
  .action(async (o: { username: string; password: string; mustChangePassword: boolean }) => {
    const password = checkPassword(o.password, loadConfig().minPasswordLength);
    await withSystem(async (cx) => {
      await userService.changePassword(cx, { username: o.username, password, mustChangePassword: o.mustChangePassword });
      process.stdout.write(`${o.username}'s password has been successfully updated!\n`);
    });
  });
user
  .command('list')
  .description('List users.')
  .option('--admin', 'list only site administrators', false)
  .action(async (o: { admin: boolean }) => {
    await withSystem(async (cx) => {
      const rows: string[] = ['ID\tUsername\tEmail\tIsActive\tIsAdmin\t2FA'];
      for (let page = 1; ; page++) {
        const result = await userService.adminListUsers(cx, { page, pageSize: 50, sort: 'id', ...(o.admin ? { isAdmin: true } : {}) });
        for (const u of result.items) rows.push(`${u.id}\t${u.name}\t${u.email}\t${u.isActive}\t${u.isAdmin}\tfalse`);
        if (page * 50 >= result.total) break;
      }
      process.stdout.write(`${rows.join('\n')}\n`);
    });
  });

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
