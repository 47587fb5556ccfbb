import { chmodSync, mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnTestGit } from '../helpers/gitSpawn.ts';

/** Who wrote a fixture commit. */
export interface FixtureAuthor {
  name: string;
  email: string;
}

export const ALICE: FixtureAuthor = { name: 'Alice', email: 'alice@example.com' };
export const BOB: FixtureAuthor = { name: 'Bob', email: 'bob@example.com' };

/**
 * A bare repository (what the functions under test get) built with the real git CLI through a scratch work
 * tree: commits are made in `work` and pushed to `bare`. Commit dates increase by one minute per commit, so
 * `git log` order is deterministic. HOME is the fixture's own directory (no global config).
 */
export class RepoFixture {
  private clock = 1_700_000_000;
  private constructor(
    readonly root: string,
    readonly bare: string,
    readonly work: string,
  ) {}

  static async create(objectFormat: 'sha1' | 'sha256' = 'sha1'): Promise<RepoFixture> {
    const root = mkdtempSync(path.join(tmpdir(), 'fg-gittest-'));
    const f = new RepoFixture(root, path.join(root, 'repo.git'), path.join(root, 'work'));
    await f.git(['init', '-q', '--bare', `--object-format=${objectFormat}`, '--initial-branch=main', f.bare], { cwd: root });
    await f.git(['init', '-q', `--object-format=${objectFormat}`, '--initial-branch=main', f.work], { cwd: root });
    return f;
  }

  /** Runs git (in the work tree unless `cwd`) and returns stdout; throws with stderr on failure. */
  git(
    args: string[],
    opts: { cwd?: string; env?: Record<string, string>; gitDir?: string; input?: string | Buffer } = {},
  ): Promise<string> {
    const full = opts.gitDir ? ['--git-dir', opts.gitDir, ...args] : args;
    return new Promise((resolve, reject) => {
      const child = spawnTestGit(full, opts.cwd ?? this.work, {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: this.root,
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_TERMINAL_PROMPT: '0',
        ...opts.env,
      });
      child.stdin.end(opts.input);
      let out = '';
      let err = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`git ${full.join(' ')} failed (${code}): ${err}`))));
    });
  }

  /** Runs git against the bare repository. */
  bareGit(args: string[]): Promise<string> {
    return this.git(args, { gitDir: this.bare });
  }

  /** Switches the work tree to `branch`, creating it at `from` when given. */
  async checkout(branch: string, from?: string): Promise<void> {
    await this.git(from === undefined ? ['checkout', '-q', branch] : ['checkout', '-q', '-B', branch, from]);
  }

  /**
   * Commits file changes (content, or null to delete; `renames` are `git mv`ed first, `executable` paths get mode
   * 100755) on the current branch and pushes the branch to the bare repository (or `pushTo`); returns the commit id.
   */
  async commit(
    files: Record<string, string | Buffer | null>,
    message: string,
    author: FixtureAuthor = ALICE,
    opts: { executable?: string[]; renames?: Record<string, string>; tz?: string; pushTo?: string } = {},
  ): Promise<string> {
    for (const [from, to] of Object.entries(opts.renames ?? {})) {
      mkdirSync(path.dirname(path.join(this.work, to)), { recursive: true });
      await this.git(['mv', '--', from, to]);
    }
    for (const [name, content] of Object.entries(files)) {
      const file = path.join(this.work, name);
      if (content === null) {
        unlinkSync(file);
      } else {
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, content);
      }
    }
    for (const name of opts.executable ?? []) chmodSync(path.join(this.work, name), 0o755);
    await this.git(['add', '-A']);
    this.clock += 60;
    const date = `@${this.clock} ${opts.tz ?? '+0000'}`;
    await this.git(['commit', '-q', '--allow-empty', '-m', message], {
      env: {
        GIT_AUTHOR_NAME: author.name,
        GIT_AUTHOR_EMAIL: author.email,
        GIT_AUTHOR_DATE: date,
        GIT_COMMITTER_NAME: author.name,
        GIT_COMMITTER_EMAIL: author.email,
        GIT_COMMITTER_DATE: date,
      },
    });
    const branch = (await this.git(['symbolic-ref', '--short', 'HEAD'])).trim();
    await this.git(['push', '-q', '--force', opts.pushTo ?? this.bare, `HEAD:refs/heads/${branch}`]);
    return this.rev('HEAD');
  }

  /** A merge commit of `other` into the current branch (pushed). */
  async mergeIn(other: string, message: string): Promise<string> {
    this.clock += 60;
    const date = `@${this.clock} +0000`;
    await this.git(['merge', '-q', '--no-ff', '-m', message, other], {
      env: {
        GIT_AUTHOR_NAME: ALICE.name,
        GIT_AUTHOR_EMAIL: ALICE.email,
        GIT_AUTHOR_DATE: date,
        GIT_COMMITTER_NAME: ALICE.name,
        GIT_COMMITTER_EMAIL: ALICE.email,
        GIT_COMMITTER_DATE: date,
      },
    });
    const branch = (await this.git(['symbolic-ref', '--short', 'HEAD'])).trim();
    await this.git(['push', '-q', '--force', this.bare, `HEAD:refs/heads/${branch}`]);
    return this.rev('HEAD');
  }

  /** Full id of a revision in the work tree repository. */
  async rev(rev: string): Promise<string> {
    return (await this.git(['rev-parse', '--verify', rev])).trim();
  }

  /** `git log --format='%H %P %an %cn %s'` of the bare repository, newest first, as lines. */
  async log(rev: string, format = '%H %P %an %cn %s'): Promise<string[]> {
    return (await this.bareGit(['log', `--format=${format}`, rev, '--'])).split('\n').filter(Boolean);
  }

  cleanup(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}
