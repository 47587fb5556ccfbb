import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Models } from '../../src/db/client.ts';
import type { RefUpdate } from '../../src/notify/events.ts';
import type { TestApp } from '../helpers/app.ts';
import { childOutput, type ProcessOutput } from '../helpers/childOutput.ts';
import { spawnTestGit } from '../helpers/gitSpawn.ts';
import { createRepo, editRepo, setUnits } from '../helpers/fixtures.ts';
import { orgOwner } from '../helpers/org.ts';

/** The result of one git invocation. */
export type GitResult = ProcessOutput;

/** A sandbox for the real git client: its own HOME (no global config), no prompts, no credential helper. */
export class GitClient {
  readonly home: string;
  constructor() {
    this.home = mkdtempSync(path.join(tmpdir(), 'fg-gitclient-'));
    writeFileSync(
      path.join(this.home, '.gitconfig'),
      '[user]\n\tname = Test Pusher\n\temail = pusher@example.com\n[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n',
    );
  }

  /** A fresh directory under the sandbox. */
  dir(name: string): string {
    const d = path.join(this.home, name);
    mkdirSync(d, { recursive: true });
    return d;
  }

  /** Runs git in `cwd` (the sandbox by default). */
  run(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}): Promise<GitResult> {
    const child = spawnTestGit(
      ['-c', 'credential.helper=', '-c', 'maintenance.auto=false', '-c', 'gc.auto=0', ...args],
      opts.cwd ?? this.home,
      {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: this.home,
        GIT_TERMINAL_PROMPT: '0',
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_ASKPASS: '',
        SSH_ASKPASS: '',
        ...opts.env,
      },
    );
    return childOutput(child);
  }

  /** Runs git and throws with its output when it fails. */
  async ok(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}): Promise<string> {
    const r = await this.run(args, opts);
    if (r.code !== 0) throw new Error(`git ${args.join(' ')} failed (${r.code}):\n${r.stdout}\n${r.stderr}`);
    return r.stdout;
  }

  /** Makes a commit with one file in a work tree; returns its sha. */
  async commit(cwd: string, file: string, content: string | Buffer, message = `change ${file}`): Promise<string> {
    mkdirSync(path.dirname(path.join(cwd, file)), { recursive: true });
    writeFileSync(path.join(cwd, file), content);
    await this.ok(['add', file], { cwd });
    await this.ok(['commit', '-q', '-m', message], { cwd });
    return (await this.ok(['rev-parse', 'HEAD'], { cwd })).trim();
  }

  dispose(): void {
    rmSync(this.home, { recursive: true, force: true });
  }
}

/** `http://[user:secret@]127.0.0.1:<port>/<owner>/<name>.git`. */
export function gitUrl(port: number, owner: string, name: string, creds?: { user: string; secret: string }, suffix = '.git'): string {
  const auth = creds ? `${encodeURIComponent(creds.user)}:${encodeURIComponent(creds.secret)}@` : '';
  return `http://${auth}127.0.0.1:${port}/${owner}/${name}${suffix}`;
}

/** Options of a fixture repository. */
export interface RepoFixtureOptions {
  isPrivate?: boolean;
  isArchived?: boolean;
  defaultBranch?: string;
  units?: readonly Models.RepoUnitType[];
}

/**
 * Creates a repository through the repository service (as its owner, or an owner of its organization), then
 * applies the settings asked for (units kept, archived) through the repository settings.
 */
export async function createRepoFixture(
  t: TestApp,
  owner: Models.User,
  name: string,
  opts: RepoFixtureOptions = {},
): Promise<Models.Repository> {
  const org = owner.type === 'ORGANIZATION';
  const actor = org ? await orgOwner(t, owner) : owner;
  let repo = await createRepo(t, actor, name, {
    private: opts.isPrivate ?? false,
    defaultBranch: opts.defaultBranch ?? 'main',
    ...(org ? { org: owner } : {}),
  });
  if (opts.units) repo = await setUnits(t, repo, opts.units);
  if (opts.isArchived) repo = await editRepo(t, repo, { archived: true });
  return repo;
}

/** Collects `repo.pushed` events published by the app. */
export function capturePushes(t: TestApp): {
  events: Array<{ repoId: number; pusherId: number; updates: RefUpdate[] }>;
  take(): Promise<Array<{ repoId: number; pusherId: number; updates: RefUpdate[] }>>;
} {
  const events: Array<{ repoId: number; pusherId: number; updates: RefUpdate[] }> = [];
  t.app.deps.notifier.subscribe({
    name: 'test-pushes',
    handle(e) {
      if (e.type === 'repo.pushed') events.push({ repoId: e.repoId, pusherId: e.pusherId, updates: e.updates });
    },
  });
  return {
    events,
    async take() {
      await t.app.deps.notifier.drain();
      return events.splice(0);
    },
  };
}

export const ZERO_SHA = '0000000000000000000000000000000000000000';
