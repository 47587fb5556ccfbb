import { generateKeyPairSync } from 'node:crypto';
import { encodeGlobalID } from '@pothos/plugin-relay';
import { expect } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import { basic, type TestApp } from '../helpers/app.ts';
import { gql } from '../helpers/graphql.ts';

type Json = Record<string, unknown>;

/** A repository of the fixture: `owner/name`. */
export interface RepoAt {
  owner: string;
  name: string;
}

/** An issue or pull request: where it is, its REST number and its database id. */
export interface IssueAt {
  repo: RepoAt;
  index: number;
  id: number;
  gid: string;
}

/**
 * Builds the targets of the mutation scope test, each fresh and private where it can be (private repositories,
 * private organizations), as `root` (a site admin, so only the token scope can stand in the way) through the
 * REST API with a password. `alice` and `bob` are plain users the writes may name.
 *
 * What the cases only need as a container is shared: issues live in one private repository (a fresh issue per
 * case), and branches are written in-process through the contents API rather than pushed with the git client
 * (a clone, a push and its hooks per pull request were most of this file's time).
 */
export class ScopeFixture {
  private n = 0;
  private issueRepo: Promise<RepoAt> | null = null;

  constructor(readonly t: TestApp) {}

  /** A fresh name. */
  name(prefix: string): string {
    return `${prefix}${++this.n}`;
  }

  /** Calls REST as `as` (root by default) with a password and expects a 2xx answer. */
  async rest(method: string, url: string, body?: unknown, as = 'root'): Promise<Json> {
    const res = await this.t.request(method, `/api/v1${url}`, { headers: basic(as), ...(body === undefined ? {} : { body }) });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    await this.t.app.deps.notifier.drain();
    return res.body ? (JSON.parse(res.body) as Json) : {};
  }

  /** Runs a GraphQL mutation as root with a password and expects its payload. */
  async mutate(name: string, input: Json): Promise<void> {
    const cap = name.charAt(0).toUpperCase() + name.slice(1);
    const q = `mutation($input: ${cap}Input!) { ${name}(input: $input) { __typename } }`;
    const res = await gql<Record<string, { __typename: string } | null>>(this.t, q, {
      variables: { input },
      headers: basic('root'),
    });
    expect(res.errors).toBeUndefined();
    expect(res.data?.[name], JSON.stringify(res.data)).toMatchObject({ __typename: `${cap}Payload` });
    await this.t.app.deps.notifier.drain();
  }

  /** A user of the fixture by login. */
  user(login: string): Promise<Models.User> {
    return this.t.db.user.findUniqueOrThrow({ where: { lowerName: login.toLowerCase() } });
  }

  /** A fresh OpenSSH ed25519 public key line. */
  sshKey(): string {
    const der = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'der' });
    const field = (b: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, b.length]), b]);
    const blob = Buffer.concat([field(Buffer.from('ssh-ed25519')), field(der.subarray(der.length - 32))]);
    return `ssh-ed25519 ${blob.toString('base64')} ${this.name('key')}@test`;
  }

  /** The global id of a branch (GitHub's Ref) of a repository. */
  async refId(repo: RepoAt, branch: string): Promise<string> {
    const row = await this.t.db.branch.findFirstOrThrow({ where: { name: branch, repo: { ownerName: repo.owner, name: repo.name } } });
    return encodeGlobalID('Ref', row.id);
  }

  /** A fresh plain user. */
  async newUser(): Promise<string> {
    const login = this.name('u');
    await this.t.createUser(login);
    return login;
  }

  /** A fresh private repository of root (or of `org`), with an initial commit on main when `git`. */
  async repo(opts: { org?: string; git?: boolean; owner?: string } = {}): Promise<RepoAt> {
    const name = this.name('repo');
    const path = opts.org ? `/orgs/${opts.org}/repos` : '/user/repos';
    const owner = opts.org ?? opts.owner ?? 'root';
    await this.rest('POST', path, { name, private: true, auto_init: opts.git ?? false, default_branch: 'main' }, opts.owner ?? 'root');
    return { owner, name };
  }

  /** A fresh private organization owned by root. */
  async org(): Promise<string> {
    const login = this.name('org');
    await this.rest('POST', '/orgs', { username: login, visibility: 'private' });
    return login;
  }

  /** A fresh team of `org` with write access to code and issues; returns its id and global id. */
  async team(org: string): Promise<{ id: number; gid: string }> {
    const team = await this.rest('POST', `/orgs/${org}/teams`, {
      name: this.name('team'),
      permission: 'write',
      units: ['repo.code', 'repo.issues', 'repo.pulls'],
    });
    return { id: team.id as number, gid: encodeGlobalID('Team', team.id as number) };
  }

  /** A fresh issue in `repo` (by default in the private repository the fixture keeps for issues). */
  async issue(repo?: RepoAt): Promise<IssueAt> {
    const at = repo ?? (await (this.issueRepo ??= this.repo()));
    const issue = await this.rest('POST', `/repos/${at.owner}/${at.name}/issues`, { title: this.name('issue') });
    return { repo: at, index: issue.number as number, id: issue.id as number, gid: encodeGlobalID('Issue', issue.id as number) };
  }

  /** `/repos/{owner}/{repo}/issues/{index}` of an issue. */
  issuePath(issue: IssueAt): string {
    return `/repos/${issue.repo.owner}/${issue.repo.name}/issues/${issue.index}`;
  }

  /** A fresh repository label; returns its id and global id. */
  async repoLabel(repo: RepoAt): Promise<{ id: number; gid: string }> {
    const label = await this.rest('POST', `/repos/${repo.owner}/${repo.name}/labels`, { name: this.name('label'), color: '#00aabb' });
    return { id: label.id as number, gid: encodeGlobalID('Label', label.id as number) };
  }

  /** A fresh comment on a fresh issue; returns its global id. */
  async comment(): Promise<string> {
    const issue = await this.issue();
    const c = await this.rest('POST', `${this.issuePath(issue)}/comments`, { body: 'a comment' });
    return encodeGlobalID('IssueComment', c.id as number);
  }

  /** A fresh repository project (root's repository); returns its id and global id. */
  async repoProject(repo: RepoAt): Promise<{ id: number; gid: string }> {
    const p = await this.rest('POST', `/repos/${repo.owner}/${repo.name}/projects`, { title: this.name('project') });
    return { id: p.id as number, gid: encodeGlobalID('Project', p.id as number) };
  }

  /**
   * A fresh pull request into main of a fresh repository of root: alice (a writer) pushes a branch and opens it,
   * so root may review, approve and merge it; bob may read the repository (a reviewer to request).
   */
  async pull(): Promise<IssueAt & { head: string }> {
    const repo = await this.repo({ git: true });
    await this.rest('PUT', `/repos/${repo.owner}/${repo.name}/collaborators/alice`, { permission: 'write' });
    await this.rest('PUT', `/repos/${repo.owner}/${repo.name}/collaborators/bob`, { permission: 'read' });
    const head = await this.branch(repo);
    const json = await this.rest('POST', `/repos/${repo.owner}/${repo.name}/pulls`, { head, base: 'main', title: `pull ${head}` }, 'alice');
    const row = await this.t.db.pullRequest.findFirstOrThrow({
      where: { index: json.number as number, baseRepo: { lowerName: repo.name } },
    });
    return { repo, index: json.number as number, id: row.id, gid: encodeGlobalID('PullRequest', row.id), head };
  }

  /** A fresh branch of `repo` off main with one new file (written as root through the contents API); its name. */
  async branch(repo: RepoAt): Promise<string> {
    const head = this.name('topic');
    await this.rest('POST', `/repos/${repo.owner}/${repo.name}/contents/${head}.txt`, {
      content: Buffer.from(`${head}\n`).toString('base64'),
      branch: 'main',
      new_branch: head,
      message: `change ${head}.txt`,
    });
    return head;
  }

  /** A review of `pull` by root, created through REST (`event` absent leaves it pending); returns its global id. */
  async review(pull: IssueAt, event?: string): Promise<string> {
    const r = await this.rest('POST', `/repos/${pull.repo.owner}/${pull.repo.name}/pulls/${pull.index}/reviews`, {
      body: 'looks fine',
      ...(event ? { event } : {}),
    });
    return encodeGlobalID('PullRequestReview', r.id as number);
  }
}
