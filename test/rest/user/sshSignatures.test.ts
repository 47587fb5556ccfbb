import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { expectVerifiedByAlice } from '../../helpers/giteaAssert.ts';
import { PullFixture } from '../../helpers/pull.ts';
import { tamperedCommit } from '../../helpers/tamperedCommit.ts';
import { restApi } from '../protection/restApi.ts';

/** Throw-away OpenSSH ed25519 keys made by the real ssh-keygen: alice's signing key, her second key, a stranger's. */
function sshKeys() {
  const dir = mkdtempSync(path.join(tmpdir(), 'fg-sshsig-'));
  const keyOf = (name: string) => {
    const file = path.join(dir, name);
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', `${name}@example.com`, '-f', file]);
    const line = readFileSync(`${file}.pub`, 'utf8').trim();
    const fingerprint =
      execFileSync('ssh-keygen', ['-l', '-f', `${file}.pub`])
        .toString('utf8')
        .split(' ')[1] ?? '';
    return { file, line, fingerprint };
  };
  return {
    alice: keyOf('alice'),
    second: keyOf('second'),
    stranger: keyOf('stranger'),
    /** `echo -n TEXT | ssh-keygen -Y sign -n NAMESPACE -f KEY`, as Gitea's settings page asks. */
    sign: (file: string, text: string, namespace: string) =>
      execFileSync('ssh-keygen', ['-Y', 'sign', '-n', namespace, '-f', file], { input: text, stdio: ['pipe', 'pipe', 'ignore'] }).toString(
        'utf8',
      ),
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

const keys = sshKeys();

/**
 * SSH-signed commits and tags (`git commit -S` / `git tag -s` with gpg.format=ssh, through the real ssh-keygen):
 * verified only by a verified key of the committer, as Gitea's ParseCommitWithSSHSignature; the key verified by a
 * signed token through the graph's verifySshPublicKey; unknown, tampered and unverified-key signatures with the
 * reasons and states both doors show.
 */
describe.each(PROVIDERS)('SSH-signed commits and tags (%s)', (provider) => {
  let t: TestApp;
  let f: PullFixture;
  let dir: string;
  const api = restApi(() => t);
  const ALICE = ['-c', 'user.name=Alice', '-c', 'user.email=alice@example.com'];
  const ssh = (file: string) => ['-c', 'gpg.format=ssh', '-c', `user.signingkey=${file}`];

  /** Commits a file as alice, signed with the SSH key `file` (unsigned when null); returns the sha. */
  const commit = async (file: string, key: string | null) => {
    writeFileSync(path.join(dir, file), file);
    await f.git.ok(['add', file], { cwd: dir });
    const sign = key ? [...ssh(key), '-c', 'commit.gpgsign=true'] : ['-c', 'commit.gpgsign=false'];
    await f.git.ok([...sign, ...ALICE, 'commit', '-q', '-m', `add ${file}`], { cwd: dir });
    return (await f.git.ok(['rev-parse', 'HEAD'], { cwd: dir })).trim();
  };
  const verification = async (sha: string) =>
    ((await api('GET', `/repos/alice/demo/git/commits/${sha}`, 'alice')).json.commit as { verification: Record<string, unknown> })
      .verification;
  const graph = async (query: string) => {
    const res = await t.graphql(query, {}, { authorization: `token ${await t.createToken('alice', ['write:user', 'read:repository'])}` });
    return res.json() as { data: Record<string, unknown> | null; errors?: Array<{ message: string }> };
  };
  const verifyKey = (fingerprint: string, signature: string) =>
    graph(
      `mutation { verifySshPublicKey(input: { fingerprint: ${JSON.stringify(fingerprint)}, signature: ${JSON.stringify(signature)} }) { publicKey { fingerprint isVerified } } }`,
    );
  const token = async () =>
    (
      await t.request('GET', '/api/v1/user/gpg_key_token', {
        headers: { authorization: `Basic ${Buffer.from('alice:password123!').toString('base64')}` },
      })
    ).body;
  const signatureQuery = (alias: string, sha: string, kind: 'Commit' | 'Tag') =>
    `${alias}: object(oid: "${sha}") { ... on ${kind} { signature { __typename email isValid state signer { login } wasSignedByGitHub ... on SshSignature { keyFingerprint } } } }`;

  beforeAll(async () => {
    t = await startTestApp(provider);
    f = await PullFixture.start(t);
    await t.createUser('alice');
    await t.createUser('bob');
    await f.createRepo('alice', 'demo');
    for (const [title, k] of [
      ['signing', keys.alice],
      ['second', keys.second],
    ] as const) {
      expect((await api('POST', '/user/keys', 'alice', { title, key: k.line })).status).toBe(201);
    }
    dir = await f.workTree('alice', 'demo', 'alice');
  });
  afterAll(async () => {
    f?.dispose();
    await t?.close();
  });

  it('verifies an SSH key by a token signed in the "gitea" namespace, and nothing else', async () => {
    const current = await token();
    expect(current).toMatch(/^[0-9a-f]{64}$/);
    const wrongKey = await verifyKey(keys.alice.fingerprint, keys.sign(keys.stranger.file, current, 'gitea'));
    expect(wrongKey.errors?.[0]?.message).toMatch(/^The provided SSH key, signature and token do not match or token is out of date\./);
    const wrongNamespace = await verifyKey(keys.alice.fingerprint, keys.sign(keys.alice.file, current, 'git'));
    expect(wrongNamespace.errors?.[0]?.message).toMatch(/^The provided SSH key, signature and token do not match/);
    const wrongToken = await verifyKey(keys.alice.fingerprint, keys.sign(keys.alice.file, 'f'.repeat(64), 'gitea'));
    expect(wrongToken.errors).toHaveLength(1);
    const notMine = await verifyKey(keys.stranger.fingerprint, keys.sign(keys.stranger.file, current, 'gitea'));
    expect(notMine.errors?.[0]?.message).toBe('public key does not exist');
    const { data: before } = await graph('{ viewer { publicKeys(first: 5) { nodes { fingerprint isVerified } } } }');
    expect(before).toEqual({
      viewer: {
        publicKeys: {
          nodes: [
            { fingerprint: keys.alice.fingerprint, isVerified: false },
            { fingerprint: keys.second.fingerprint, isVerified: false },
          ],
        },
      },
    });
    // A commit signed with a key not yet verified reads unverified until the key is.
    const early = await commit('early.txt', keys.alice.file);
    await f.git.ok(['push', '-q', 'origin', `${early}:refs/heads/early`], { cwd: dir });
    expect(await verification(early)).toMatchObject({ verified: false, reason: 'gpg.error.no_gpg_keys_found', signer: null });

    const ok = await verifyKey(keys.alice.fingerprint, keys.sign(keys.alice.file, current, 'gitea'));
    expect(ok.errors, JSON.stringify(ok.errors)).toBeUndefined();
    expect(ok.data).toEqual({ verifySshPublicKey: { publicKey: { fingerprint: keys.alice.fingerprint, isVerified: true } } });
    expect(await verification(early)).toMatchObject({ verified: true, reason: `alice / ${keys.alice.fingerprint}` });
  });

  it('shows verified, unknown-key, unverified-key and tampered SSH-signed commits as Gitea does', async () => {
    const signed = await commit('signed.txt', keys.alice.file);
    const unknown = await commit('unknown.txt', keys.stranger.file);
    const unverified = await commit('unverified.txt', keys.second.file);
    expect(await f.git.ok(['cat-file', 'commit', signed], { cwd: dir })).toContain('-----BEGIN SSH SIGNATURE-----');
    const tampered = await tamperedCommit(f.git, dir, signed, 'add signed.txt', 'add evil.txt');
    await f.git.ok(['push', '-q', 'origin', `${unverified}:refs/heads/main`, `${tampered}:refs/heads/tampered`], { cwd: dir });

    expectVerifiedByAlice(await verification(signed), `alice / ${keys.alice.fingerprint}`, 'SSH');
    for (const sha of [unknown, unverified, tampered]) {
      expect(await verification(sha)).toMatchObject({ verified: false, reason: 'gpg.error.no_gpg_keys_found', signer: null });
    }
    const list = await api('GET', '/repos/alice/demo/commits?limit=3', 'alice');
    expect(
      (list.json as unknown as Array<{ commit: { verification: { verified: boolean } } }>).map((c) => c.commit.verification.verified),
    ).toEqual([false, false, true]);

    const res = await graph(
      `{ repository(owner: "alice", name: "demo") { ${[
        signatureQuery('signed', signed, 'Commit'),
        signatureQuery('unknown', unknown, 'Commit'),
        signatureQuery('unverified', unverified, 'Commit'),
        signatureQuery('tampered', tampered, 'Commit'),
      ].join(' ')} } }`,
    );
    expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
    const repo = res.data?.repository as Record<string, { signature: Record<string, unknown> | null }>;
    expect(repo.signed?.signature).toEqual({
      __typename: 'SshSignature',
      email: 'alice@example.com',
      isValid: true,
      state: 'VALID',
      signer: { login: 'alice' },
      wasSignedByGitHub: false,
      keyFingerprint: keys.alice.fingerprint,
    });
    expect(repo.unknown?.signature).toMatchObject({
      isValid: false,
      state: 'UNKNOWN_KEY',
      keyFingerprint: keys.stranger.fingerprint,
      signer: null,
    });
    expect(repo.unverified?.signature).toMatchObject({ isValid: false, state: 'UNKNOWN_KEY', keyFingerprint: keys.second.fingerprint });
    expect(repo.tampered?.signature).toMatchObject({ isValid: false, state: 'INVALID', keyFingerprint: keys.alice.fingerprint });
  });

  it("verifies nothing for a committer e-mail that is no user's, even signed with a verified key", async () => {
    writeFileSync(path.join(dir, 'other.txt'), 'other');
    await f.git.ok(['add', 'other.txt'], { cwd: dir });
    const as = ['-c', 'user.name=Alice', '-c', 'user.email=alice@elsewhere.example'];
    await f.git.ok([...ssh(keys.alice.file), '-c', 'commit.gpgsign=true', ...as, 'commit', '-q', '-m', 'elsewhere'], { cwd: dir });
    const sha = (await f.git.ok(['rev-parse', 'HEAD'], { cwd: dir })).trim();
    await f.git.ok(['push', '-q', 'origin', `${sha}:refs/heads/elsewhere`], { cwd: dir });
    expect(await verification(sha)).toMatchObject({ verified: false, reason: 'gpg.error.no_gpg_keys_found' });
  });

  it('verifies SSH-signed annotated tags against the tagger, and says unsigned tags are unsigned', async () => {
    const target = await commit('tagged.txt', null);
    await f.git.ok([...ssh(keys.alice.file), ...ALICE, 'tag', '-s', 'v1.0', '-m', 'release 1.0', target], { cwd: dir });
    await f.git.ok([...ssh(keys.stranger.file), ...ALICE, 'tag', '-s', 'v1.1', '-m', 'release 1.1', target], { cwd: dir });
    await f.git.ok([...ALICE, '-c', 'tag.gpgsign=false', 'tag', '-a', 'v1.2', '-m', 'release 1.2', target], { cwd: dir });
    await f.git.ok(['push', '-q', 'origin', `${target}:refs/heads/tagged`, 'v1.0', 'v1.1', 'v1.2'], { cwd: dir });
    const sha = async (tag: string) => (await f.git.ok(['rev-parse', tag], { cwd: dir })).trim();
    const tagVerification = async (tag: string) => (await api('GET', `/repos/alice/demo/git/tags/${await sha(tag)}`, 'alice')).json;

    const v10 = await tagVerification('v1.0');
    expect(v10).toMatchObject({ tag: 'v1.0', message: 'release 1.0\n', object: { sha: target } });
    expect(v10.verification).toMatchObject({
      verified: true,
      reason: `alice / ${keys.alice.fingerprint}`,
      signer: { username: 'alice', email: 'alice@example.com' },
      payload: expect.stringMatching(
        /^object [0-9a-f]{40}\ntype commit\ntag v1\.0\ntagger Alice <alice@example\.com> \d+ [+-]\d{4}\n\nrelease 1\.0\n$/,
      ),
      signature: expect.stringMatching(/^-----BEGIN SSH SIGNATURE-----\n/),
    });
    expect((await tagVerification('v1.1')).verification).toMatchObject({ verified: false, reason: 'gpg.error.no_gpg_keys_found' });
    expect((await tagVerification('v1.2')).verification).toEqual({
      verified: false,
      reason: 'gpg.error.not_signed_commit',
      signature: '',
      signer: null,
      payload: '',
    });

    const res = await graph(
      `{ repository(owner: "alice", name: "demo") { ${signatureQuery('good', await sha('v1.0'), 'Tag')} ${signatureQuery('unknown', await sha('v1.1'), 'Tag')} ${signatureQuery('plain', await sha('v1.2'), 'Tag')} } }`,
    );
    expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
    const repo = res.data?.repository as Record<string, { signature: Record<string, unknown> | null }>;
    expect(repo.good?.signature).toMatchObject({ __typename: 'SshSignature', isValid: true, state: 'VALID', signer: { login: 'alice' } });
    expect(repo.unknown?.signature).toMatchObject({ isValid: false, state: 'UNKNOWN_KEY', keyFingerprint: keys.stranger.fingerprint });
    expect(repo.plain?.signature).toBeNull();
  });

  it('lets a verified SSH signature through a branch requiring signed commits, and refuses an unverified one', async () => {
    const rule = await api('POST', '/repos/alice/demo/branch_protections', 'alice', {
      rule_name: 'main',
      enable_push: true,
      require_signed_commits: true,
    });
    expect(rule.status).toBe(201);
    await f.git.ok(['fetch', '-q', 'origin'], { cwd: dir });
    await f.git.ok(['checkout', '-q', '-B', 'work', 'origin/main'], { cwd: dir });
    const bad = await commit('bad.txt', keys.second.file);
    const refused = await f.git.run(['push', 'origin', 'HEAD:refs/heads/main'], { cwd: dir });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(`branch main is protected from unverified commit ${bad}`);
    await f.git.ok(['reset', '-q', '--hard', 'origin/main'], { cwd: dir });
    const good = await commit('good.txt', keys.alice.file);
    const pushed = await f.git.run(['push', 'origin', 'HEAD:refs/heads/main'], { cwd: dir });
    expect(pushed.code, pushed.stderr).toBe(0);
    expect((await api('GET', '/repos/alice/demo/branches/main', 'alice')).json.commit).toMatchObject({ id: good });
  });
});

afterAll(() => keys.dispose());
