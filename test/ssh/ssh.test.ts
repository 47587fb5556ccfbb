// Git over the built-in SSH server with the real OpenSSH client and git: user keys, deploy keys, the same
// permission and protection checks as smart HTTP, Gitea's serv texts, and what the server refuses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import { basic, type TestApp } from '../helpers/app.ts';
import { CLIENT_PROVIDERS } from '../helpers/db.ts';
import { addCollaborator, editUser } from '../helpers/fixtures.ts';
import { capturePushes, createRepoFixture, GitClient } from '../githttp/gitClient.ts';
import { SshClient, startSshTestApp, type KeyPair } from './sshClient.ts';

describe.each(CLIENT_PROVIDERS)('git over SSH (%s)', (provider) => {
  let t: TestApp;
  let port: number;
  let git: GitClient;
  let ssh: SshClient;
  let pushes: ReturnType<typeof capturePushes>;
  let alice: Models.User;
  const keys: Record<string, KeyPair> = {};
  const keyIds: Record<string, number> = {};

  const url = (repo: string) => `ssh://git@127.0.0.1:${port}/${repo}.git`;
  const gitAs = (key: KeyPair, args: string[], cwd?: string, env: Record<string, string> = {}) =>
    git.run(args, { ...(cwd ? { cwd } : {}), env: { GIT_SSH_COMMAND: ssh.gitSshCommand(key, port), ...env } });

  /** A clone of `repo` over SSH with `key`, with one new commit on main. */
  async function workTree(repo: string, key: KeyPair): Promise<string> {
    const dir = git.dir(`wt-${Math.random().toString(36).slice(2, 8)}`);
    const cloned = await gitAs(key, ['clone', '-q', url(repo), dir]);
    expect(cloned.code, cloned.stderr).toBe(0);
    await git.commit(dir, `f-${Math.random().toString(36).slice(2, 8)}.txt`, 'content\n');
    return dir;
  }

  async function addUserKey(user: string, name: string): Promise<void> {
    keys[name] = ssh.keygen();
    const res = await t.request('POST', '/api/v1/user/keys', { headers: basic(user), body: { title: name, key: keys[name].pub } });
    expect(res.statusCode, res.body).toBe(201);
    keyIds[name] = res.json<{ id: number }>().id;
  }

  async function addDeployKey(repo: string, name: string, readOnly: boolean): Promise<void> {
    keys[name] = ssh.keygen();
    const body = { title: name, key: keys[name].pub, read_only: readOnly };
    const res = await t.request('POST', `/api/v1/repos/${repo}/keys`, { headers: basic('alice'), body });
    expect(res.statusCode, res.body).toBe(201);
    keyIds[name] = res.json<{ key_id: number }>().key_id;
  }

  beforeAll(async () => {
    ({ t, port } = await startSshTestApp(provider, { SSH_DOMAIN: 'git.example.com', SSH_PORT: '2222' }));
    git = new GitClient();
    ssh = new SshClient();
    pushes = capturePushes(t);
    alice = await t.createUser('alice');
    for (const u of ['bob', 'carol']) await t.createUser(u);
    await createRepoFixture(t, alice, 'pub');
    const secret = await createRepoFixture(t, alice, 'secret', { isPrivate: true });
    await createRepoFixture(t, alice, 'other', { isPrivate: true });
    await createRepoFixture(t, alice, 'guarded', { isPrivate: true });
    await createRepoFixture(t, alice, 'old', { isArchived: true });
    await createRepoFixture(t, alice, 'nocode', { isPrivate: true, units: ['ISSUES'] });
    await addCollaborator(t, secret, { name: 'carol' }, 'read');
    await addUserKey('alice', 'laptop');
    await addUserKey('bob', 'bobkey');
    await addUserKey('carol', 'carolkey');
    await addDeployKey('alice/secret', 'ci-read', true);
    await addDeployKey('alice/secret', 'ci-write', false);
    await addDeployKey('alice/other', 'other-write', false);
    await addDeployKey('alice/guarded', 'guard-write', false);
    const seed = git.dir('seed');
    await git.ok(['init', '-q', seed]);
    await git.commit(seed, 'README.md', 'seed\n');
    for (const repo of ['alice/secret', 'alice/guarded', 'alice/pub']) {
      const seeded = await gitAs(keys.laptop!, ['push', '-q', url(repo), 'main'], seed);
      expect(seeded.code, seeded.stderr).toBe(0);
    }
    await pushes.take();
  });
  afterAll(async () => {
    git?.dispose();
    ssh?.dispose();
    await t?.close();
  });

  it('a user key clones, pushes and fetches with its user’s rights; the push is recorded as theirs', async () => {
    const dir = await workTree('alice/secret', keys.laptop!);
    const pushed = await gitAs(keys.laptop!, ['push', url('alice/secret'), 'main'], dir);
    expect(pushed.code, pushed.stderr).toBe(0);
    const head = (await git.ok(['rev-parse', 'HEAD'], { cwd: dir })).trim();
    const events = await pushes.take();
    expect(events).toMatchObject([{ pusherId: alice.id, updates: [{ ref: 'refs/heads/main', newSha: head }] }]);
    const branch = await t.request('GET', '/api/v1/repos/alice/secret/branches/main', { headers: basic('alice') });
    expect(branch.json<{ commit: { id: string } }>().commit.id).toBe(head);
    // scp-like address without `.git`, names in another case, and a fetch of what was pushed.
    const other = git.dir('scp-like');
    const cloned = await gitAs(keys.laptop!, ['clone', '-q', 'git@127.0.0.1:ALICE/Secret', other]);
    expect(cloned.code, cloned.stderr).toBe(0);
    expect((await git.ok(['rev-parse', 'HEAD'], { cwd: other })).trim()).toBe(head);
    const fetched = await gitAs(keys.laptop!, ['fetch', '-q', 'git@127.0.0.1:/alice/secret.git'], other);
    expect(fetched.code, fetched.stderr).toBe(0);
    // The key's last use is recorded (Gitea updates it after a command).
    const key = await t.request('GET', `/api/v1/user/keys/${keyIds.laptop}`, { headers: basic('alice') });
    const { created_at, last_used_at } = key.json<{ created_at: string; last_used_at: string }>();
    expect(Date.parse(last_used_at)).toBeGreaterThan(Date.parse(created_at));
  });

  it('passes GIT_PROTOCOL on: protocol v2 when the client asks for it, v0 otherwise', async () => {
    const v2 = await gitAs(keys.laptop!, ['-c', 'protocol.version=2', 'ls-remote', url('alice/pub')], undefined, { GIT_TRACE_PACKET: '1' });
    expect(v2.code, v2.stderr).toBe(0);
    expect(v2.stderr).toMatch(/< version 2/);
    expect(v2.stdout).toMatch(/\trefs\/heads\/main/);
    const v0 = await gitAs(keys.laptop!, ['-c', 'protocol.version=0', 'ls-remote', url('alice/pub')], undefined, { GIT_TRACE_PACKET: '1' });
    expect(v0.code, v0.stderr).toBe(0);
    expect(v0.stderr).not.toMatch(/version 2/);
    expect(v0.stdout).toBe(v2.stdout);
  });

  it('serves git archive --remote (upload-archive) to readers', async () => {
    const r = await gitAs(keys.carolkey!, ['archive', `--remote=${url('alice/secret')}`, '--format=tar', 'main']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.length).toBeGreaterThan(512);
  });

  it("serves the repository's wiki (`<repo>.wiki.git`) with the wiki unit's rights: the owner clones and pushes, an outsider finds nothing", async () => {
    const page = await t.request('POST', '/api/v1/repos/alice/secret/wiki/new', {
      headers: basic('alice'),
      body: { title: 'Home', content_base64: Buffer.from('# Welcome\n').toString('base64') },
    });
    expect(page.statusCode, page.body).toBe(201);
    const dir = git.dir('wiki-clone');
    const cloned = await gitAs(keys.laptop!, ['clone', '-q', url('alice/secret.wiki'), dir]);
    expect(cloned.code, cloned.stderr).toBe(0);
    await git.commit(dir, 'Second.md', 'second page\n');
    const pushed = await gitAs(keys.laptop!, ['push', '-q', url('alice/secret.wiki'), 'HEAD'], dir);
    expect(pushed.code, pushed.stderr).toBe(0);
    const second = await t.request('GET', '/api/v1/repos/alice/secret/wiki/page/Second', { headers: basic('alice') });
    expect(second.statusCode).toBe(200);
    const hidden = await gitAs(keys.bobkey!, ['ls-remote', url('alice/secret.wiki')]);
    expect(hidden.stderr).toContain('Forgegraph: Cannot find repository: alice/secret.wiki');
  });

  it('a private repository without access reads exactly like a missing one', async () => {
    const hidden = await gitAs(keys.bobkey!, ['ls-remote', url('alice/secret')]);
    const missing = await gitAs(keys.bobkey!, ['ls-remote', url('alice/nothere')]);
    expect(hidden.code).not.toBe(0);
    expect(hidden.stderr).toContain('Forgegraph: Cannot find repository: alice/secret');
    expect(hidden.stderr).toContain('fatal: Could not read from remote repository.');
    expect(hidden.stderr.replace('alice/secret', 'X')).toBe(missing.stderr.replace('alice/nothere', 'X'));
    // A disabled code unit does not exist either, for the owner too.
    const nocode = await gitAs(keys.laptop!, ['ls-remote', url('alice/nocode')]);
    expect(nocode.stderr).toContain('Forgegraph: Cannot find repository: alice/nocode');
  });

  it('a reader clones but may not push; an archived repository refuses pushes', async () => {
    const dir = await workTree('alice/secret', keys.carolkey!);
    const p = await gitAs(keys.carolkey!, ['push', url('alice/secret'), 'main:carol'], dir);
    expect(p.code).not.toBe(0);
    const carol = await t.db.user.findUniqueOrThrow({ where: { lowerName: 'carol' } });
    expect(p.stderr).toContain(
      `Forgegraph: User: ${carol.id}:carol with Key: ${keyIds.carolkey}:carolkey is not authorized to write to alice/secret.`,
    );
    const old = await gitAs(keys.laptop!, ['push', url('alice/old'), 'main'], dir);
    expect(old.stderr).toContain('Forgegraph: Repo: alice/old is archived.');
    expect(await pushes.take()).toEqual([]);
  });

  it('deploy keys: read-only clones but cannot push, read-write pushes (recorded as the owner), others see nothing', async () => {
    const dir = await workTree('alice/secret', keys['ci-read']!);
    const ro = await gitAs(keys['ci-read']!, ['push', url('alice/secret'), 'main:from-ro'], dir);
    expect(ro.code).not.toBe(0);
    expect(ro.stderr).toContain(`Forgegraph: Deploy Key: ${keyIds['ci-read']}:ci-read is not authorized to write to alice/secret.`);
    const rw = await gitAs(keys['ci-write']!, ['push', url('alice/secret'), 'main:from-rw'], dir);
    expect(rw.code, rw.stderr).toBe(0);
    expect(await pushes.take()).toMatchObject([{ pusherId: alice.id, updates: [{ ref: 'refs/heads/from-rw' }] }]);
    // A deploy key reaches its own repositories only: not another private one, not a public one.
    for (const repo of ['alice/secret', 'alice/pub']) {
      const r = await gitAs(keys['other-write']!, ['ls-remote', url(repo)]);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain(`Forgegraph: Cannot find repository: ${repo}`);
    }
    const row = await t.db.deployKey.findFirstOrThrow({ where: { keyId: keyIds['ci-write'] } });
    expect(row.updatedAt.getTime()).toBeGreaterThan(row.createdAt.getTime());
  });

  it('branch protection refuses the push with git’s message; deploy keys pass when the rule lets them', async () => {
    const rule = await t.request('POST', '/api/v1/repos/alice/guarded/branch_protections', {
      headers: basic('alice'),
      body: {
        rule_name: 'main',
        enable_push: true,
        enable_push_whitelist: true,
        push_whitelist_usernames: [],
        push_whitelist_deploy_keys: true,
      },
    });
    expect(rule.statusCode, rule.body).toBe(201);
    const dir = await workTree('alice/guarded', keys.laptop!);
    const refused = await gitAs(keys.laptop!, ['push', url('alice/guarded'), 'main'], dir);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/remote: .*Not allowed to push to protected branch main/);
    expect(refused.stderr).toContain('[remote rejected] main -> main (pre-receive hook declined)');
    const byKey = await gitAs(keys['guard-write']!, ['push', url('alice/guarded'), 'main'], dir);
    expect(byKey.code, byKey.stderr).toBe(0);
    const deleted = await gitAs(keys['guard-write']!, ['push', url('alice/guarded'), ':main'], dir);
    expect(deleted.stderr).toContain('branch main is protected from deletion');
    expect(await pushes.take()).toHaveLength(1);
  });

  it('answers a shell with Gitea’s greeting (exit 0), without a terminal', async () => {
    const user = await ssh.run(port, keys.laptop!, ['-T']);
    expect(user.code).toBe(0);
    expect(user.stderr).toContain(
      "Hi there, alice! You've successfully authenticated with the key named laptop, but Forgegraph does not provide shell access.",
    );
    const deploy = await ssh.run(port, keys['ci-read']!, ['-T']);
    expect(deploy.code).toBe(0);
    expect(deploy.stderr).toContain("Hi there! You've successfully authenticated with the deploy key named ci-read");
    // A terminal is refused (Gitea's too); ssh gives up when one was asked for explicitly.
    const tty = await ssh.run(port, keys.laptop!, ['-tt']);
    expect(tty.stderr).toContain('PTY allocation request failed');
  });

  it('refuses any other command, and subsystems', async () => {
    const ls = await ssh.run(port, keys.laptop!, [], 'ls -la /');
    expect(ls.code).toBe(1);
    expect(ls.stderr).toBe('Forgegraph: Unknown git command\n');
    const traversal = await ssh.run(port, keys.laptop!, [], "git-upload-pack '../../etc'");
    expect(traversal.stderr).toBe('Forgegraph: Invalid repo name\n');
    const noOwner = await ssh.run(port, keys.laptop!, [], 'git-receive-pack pub.git');
    expect(noOwner.stderr).toBe('Forgegraph: Invalid repository path\n');
    const sftp = await ssh.run(port, keys.laptop!, ['-s'], 'sftp');
    expect(sftp.code).not.toBe(0);
    expect(sftp.stderr).toContain('subsystem request failed');
  });

  it('signs in with public keys only: passwords, keyboard-interactive, unknown keys and other users are refused', async () => {
    for (const method of ['password', 'keyboard-interactive']) {
      const r = await ssh.run(port, null, ['-o', `PreferredAuthentications=${method}`], 'git-upload-pack alice/pub');
      expect(r.code).toBe(255);
      expect(r.stderr).toContain('Permission denied (publickey)');
    }
    const stranger = await ssh.run(port, ssh.keygen(), [], 'git-upload-pack alice/pub');
    expect(stranger.code).toBe(255);
    expect(stranger.stderr).toContain('Permission denied (publickey)');
    const wrongUser = await ssh.run(port, keys.laptop!, [], 'git-upload-pack alice/pub', 'alice');
    expect(wrongUser.code).toBe(255);
  });

  it('refuses port forwarding both ways', async () => {
    const local = await ssh.run(port, keys.laptop!, ['-W', '127.0.0.1:9']);
    expect(local.code).toBe(255);
    expect(local.stderr).toContain('stdio forwarding failed');
    const remote = await ssh.run(port, keys.laptop!, ['-N', '-o', 'ExitOnForwardFailure=yes', '-R', '0:127.0.0.1:9']);
    expect(remote.code).toBe(255);
    expect(remote.stderr).toContain('remote port forwarding failed');
  });

  it('a deleted key, or a disabled account, loses access at once', async () => {
    await editUser(t, { name: 'bob' }, { prohibitLogin: true });
    const disabled = await ssh.run(port, keys.bobkey!, ['-T'], 'git-upload-pack alice/pub');
    expect(disabled.code).toBe(1);
    expect(disabled.stderr).toBe('Forgegraph: Your account is disabled.\n');
    const deleted = await t.request('DELETE', `/api/v1/user/keys/${keyIds.carolkey}`, { headers: basic('carol') });
    expect(deleted.statusCode).toBe(204);
    const gone = await ssh.run(port, keys.carolkey!, ['-T'], 'git-upload-pack alice/pub');
    expect(gone.code).toBe(255);
    expect(gone.stderr).toContain('Permission denied (publickey)');
  });

  it('ssh_url and sshUrl point at the server (SSH_DOMAIN, SSH_PORT in Gitea’s ssh:// form)', async () => {
    const repo = await t.request('GET', '/api/v1/repos/alice/pub');
    expect(repo.json<{ ssh_url: string }>().ssh_url).toBe('ssh://git@git.example.com:2222/alice/pub.git');
    const graph = await t.graphql('{ repository(owner: "alice", name: "pub") { sshUrl } }');
    expect(graph.json()).toEqual({ data: { repository: { sshUrl: 'ssh://git@git.example.com:2222/alice/pub.git' } } });
  });
});
