import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import { GitClient, gitUrl } from '../githttp/gitClient.ts';
import { basic, PASSWORD, type TestApp } from './app.ts';

/**
 * Pull request fixtures built the way users make them: repositories through the REST API (auto_init), branches
 * pushed over smart HTTP with the real git client, pull requests opened with POST /repos/{o}/{r}/pulls.
 * One per suite: `const f = await PullFixture.start(t)`, `f.dispose()` in afterAll (before `t.close()`).
 */
export class PullFixture {
  readonly git = new GitClient();
  private clones = new Map<string, string>();
  private seq = 0;

  private constructor(
    readonly t: TestApp,
    readonly port: number,
  ) {}

  /** Makes the app listen on a free loopback port (git needs a real socket) unless it already does. */
  static async start(t: TestApp): Promise<PullFixture> {
    const server = t.app.server.server;
    if (!server.listening) await t.app.server.listen({ port: 0, host: '127.0.0.1' });
    return new PullFixture(t, (server.address() as AddressInfo).port);
  }

  /** The clone URL of owner/name with `user`'s password (anonymous without). */
  url(owner: string, name: string, user?: string): string {
    return gitUrl(this.port, owner, name, user ? { user, secret: PASSWORD } : undefined);
  }

  /** Creates owner/name (a user's repository, as `owner`; or an organization's, as `as`) with an initial commit on main. */
  async createRepo(owner: string, name: string, opts: { private?: boolean; as?: string; org?: boolean } = {}): Promise<Models.Repository> {
    const path = opts.org ? `/api/v1/orgs/${owner}/repos` : '/api/v1/user/repos';
    const res = await this.t.request('POST', path, {
      headers: basic(opts.as ?? owner),
      body: { name, auto_init: true, private: opts.private ?? false, default_branch: 'main' },
    });
    expect(res.statusCode, res.body).toBe(201);
    return this.t.db.repository.findUniqueOrThrow({ where: { id: (res.json() as { id: number }).id } });
  }

  /** Forks owner/name into `user`'s account (POST …/forks). */
  async fork(owner: string, name: string, user: string): Promise<Models.Repository> {
    const res = await this.t.request('POST', `/api/v1/repos/${owner}/${name}/forks`, { headers: basic(user), body: {} });
    expect(res.statusCode, res.body).toBe(202);
    return this.t.db.repository.findUniqueOrThrow({ where: { id: (res.json() as { id: number }).id } });
  }

  /** A work tree of owner/name (cloned once, as `user`), fetched up to date. */
  async workTree(owner: string, name: string, user: string): Promise<string> {
    const key = `${owner}/${name}/${user}`;
    let dir = this.clones.get(key);
    if (!dir) {
      dir = this.git.dir(`clone-${++this.seq}`);
      await this.git.ok(['clone', '-q', this.url(owner, name, user), dir]);
      this.clones.set(key, dir);
    } else {
      await this.git.ok(['fetch', '-q', 'origin'], { cwd: dir });
    }
    return dir;
  }

  /**
   * Pushes `branch` to owner/name as `user`, with one commit per file written (path → content) on top of
   * `from` (a branch of that repository, `main` by default; the branch itself when it already exists and
   * `from` is not given). Returns the new tip. Waits for the push subscribers (pull request refresh) to finish.
   */
  async push(
    owner: string,
    name: string,
    user: string,
    branch: string,
    files: Record<string, string>,
    opts: { from?: string; force?: boolean } = {},
  ): Promise<string> {
    const dir = await this.workTree(owner, name, user);
    const exists = (await this.git.run(['rev-parse', '--verify', '-q', `origin/${branch}`], { cwd: dir })).code === 0;
    const start = opts.from ?? (exists ? branch : 'main');
    await this.git.ok(['checkout', '-q', '-B', branch, `origin/${start}`], { cwd: dir });
    let sha = '';
    for (const [file, content] of Object.entries(files)) sha = await this.git.commit(dir, file, content, `change ${file}`);
    await this.git.ok(['push', '-q', ...(opts.force ? ['-f'] : []), 'origin', `${branch}:refs/heads/${branch}`], { cwd: dir });
    await this.t.app.deps.notifier.drain();
    return sha || (await this.git.ok(['rev-parse', 'HEAD'], { cwd: dir })).trim();
  }

  /** Deletes `branch` of owner/name with `git push --delete` as `user`, then waits for the push subscribers. */
  async deleteBranch(owner: string, name: string, user: string, branch: string): Promise<void> {
    const dir = await this.workTree(owner, name, user);
    await this.git.ok(['push', '-q', 'origin', '--delete', branch], { cwd: dir });
    await this.t.app.deps.notifier.drain();
  }

  /** Opens a pull request as `user` and returns the response (expects 201 unless `expectStatus`). */
  async open(
    owner: string,
    name: string,
    user: string,
    body: Record<string, unknown>,
    expectStatus = 201,
  ): Promise<{ status: number; json: Record<string, unknown> }> {
    const res = await this.t.request('POST', `/api/v1/repos/${owner}/${name}/pulls`, {
      headers: basic(user),
      body: { title: `pull ${String(body.head)}`, ...body },
    });
    expect(res.statusCode, res.body).toBe(expectStatus);
    await this.t.app.deps.notifier.drain();
    return { status: res.statusCode, json: res.json() as Record<string, unknown> };
  }

  /** Pushes `branch` with `files` to owner/name as `user`, then opens a pull request into main; returns its number. */
  async pushAndOpen(
    owner: string,
    name: string,
    user: string,
    branch: string,
    files: Record<string, string>,
    body: Record<string, unknown> = {},
  ): Promise<number> {
    await this.push(owner, name, user, branch, files);
    const { json } = await this.open(owner, name, user, { head: branch, base: 'main', ...body });
    return json.number as number;
  }

  dispose(): void {
    this.git.dispose();
  }
}

/**
 * Opens a pull request of `owner/repo` from a new branch `branch` off main that adds the file `<branch>.txt` (the
 * contents API, then POST /pulls, as `headers`' user); returns its number.
 */
export async function pullFromNewBranch(
  t: TestApp,
  repo: { owner: string; name: string },
  branch: string,
  headers: Record<string, string>,
): Promise<number> {
  const base = `/api/v1/repos/${repo.owner}/${repo.name}`;
  const file = await t.request('POST', `${base}/contents/${branch}.txt`, {
    headers,
    body: { content: Buffer.from(`${branch}\n`).toString('base64'), message: `Add ${branch}`, new_branch: branch },
  });
  expect(file.statusCode, file.body).toBe(201);
  const pull = await t.request('POST', `${base}/pulls`, { headers, body: { head: branch, base: 'main', title: branch } });
  expect(pull.statusCode, pull.body).toBe(201);
  return (pull.json() as { number: number }).number;
}
