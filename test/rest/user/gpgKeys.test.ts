import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isGiteaError, startTestApp, tokenAuth, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { expectVerifiedByAlice } from '../../helpers/giteaAssert.ts';
import { gnupg } from '../../helpers/gnupg.ts';
import { PullFixture } from '../../helpers/pull.ts';
import { tamperedCommit } from '../../helpers/tamperedCommit.ts';
import { restApi } from '../protection/restApi.ts';

const keys = gnupg();

/**
 * GPG keys (Gitea's API and messages) and signed commits with the real gpg and git: verified, unsigned,
 * tampered and unknown-key commits, and a branch requiring signed commits refusing unsigned pushes and API writes.
 */
describe.each(PROVIDERS)('GPG keys and signed commits (%s)', (provider) => {
  let t: TestApp;
  let f: PullFixture;
  const api = restApi(() => t);
  const env = () => ({ GNUPGHOME: keys.home });

  /** Commits a file in alice's clone as alice, signed with `fpr` (unsigned when null); returns the sha. */
  const commit = async (dir: string, file: string, fpr: string | null) => {
    writeFileSync(path.join(dir, file), file);
    await f.git.ok(['add', file], { cwd: dir });
    const sign = fpr ? ['-c', 'commit.gpgsign=true', '-c', `user.signingkey=${fpr}`] : ['-c', 'commit.gpgsign=false'];
    await f.git.ok([...sign, '-c', 'user.name=Alice', '-c', 'user.email=alice@example.com', 'commit', '-q', '-m', `add ${file}`], {
      cwd: dir,
      env: env(),
    });
    return (await f.git.ok(['rev-parse', 'HEAD'], { cwd: dir })).trim();
  };
  const verification = async (sha: string) =>
    ((await api('GET', `/repos/alice/demo/git/commits/${sha}`, 'alice')).json.commit as { verification: Record<string, unknown> })
      .verification;

  beforeAll(async () => {
    t = await startTestApp(provider);
    f = await PullFixture.start(t);
    await t.createUser('alice');
    await t.createUser('bob');
    await f.createRepo('alice', 'demo');
  });
  afterAll(async () => {
    f?.dispose();
    await t?.close();
  });

  it('adds, lists, gets and deletes keys with Gitea shapes and errors', async () => {
    expect((await t.request('GET', '/api/v1/user/gpg_keys')).statusCode).toBe(401);
    const created = await api('POST', '/user/gpg_keys', 'alice', { armored_public_key: keys.alice.armored });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      primary_key_id: '',
      key_id: keys.alice.keyId,
      emails: [{ email: 'alice@example.com', verified: true }],
      subkeys: [],
      can_sign: true,
      can_certify: true,
      can_encrypt_comms: false,
      verified: false,
      expires_at: '0001-01-01T00:00:00Z',
    });
    expect(Object.keys(created.json).slice(0, 6)).toEqual(['id', 'primary_key_id', 'key_id', 'public_key', 'emails', 'subkeys']);
    const id = created.json.id as number;

    const again = await api('POST', '/user/gpg_keys', 'alice', { armored_public_key: keys.alice.armored });
    expect(again).toMatchObject({ status: 422, json: { message: 'A key with the same id already exists' } });
    const garbage = await api('POST', '/user/gpg_keys', 'alice', { armored_public_key: 'not a key' });
    expect(garbage.status).toBe(422);
    expect(garbage.json.message).toMatch(/^failed to parse gpg key /);
    const foreign = await api('POST', '/user/gpg_keys', 'bob', { armored_public_key: keys.bob.armored });
    expect(foreign.status).toBe(404);
    expect(foreign.json.message).toMatch(/^None of the emails attached to the GPG key could be found\. .*token: [0-9a-f]{64}$/);
    expect(isGiteaError(foreign.json)).toBe(true);

    const mine = await t.request('GET', '/api/v1/user/gpg_keys', { headers: tokenAuth(await t.createToken('alice', ['read:user'])) });
    expect(mine.statusCode).toBe(200);
    expect(mine.headers['x-total-count']).toBe('1');
    expect((await api('GET', '/users/alice/gpg_keys', 'bob')).json).toEqual([created.json]);
    expect((await api('GET', `/user/gpg_keys/${id}`, 'alice')).json).toEqual(created.json);
    expect((await api('GET', `/user/gpg_keys/${id}`, 'bob')).status).toBe(404);
    const readOnly = await t.request('POST', '/api/v1/user/gpg_keys', {
      headers: tokenAuth(await t.createToken('bob', ['read:user'])),
      body: { armored_public_key: keys.bob.armored },
    });
    expect(readOnly.statusCode).toBe(403);
    // Another user's key is left alone (Gitea answers 204 all the same).
    expect((await api('DELETE', `/user/gpg_keys/${id}`, 'bob')).status).toBe(204);
    expect((await api('GET', '/users/alice/gpg_keys', 'alice')).json).toHaveLength(1);
  });

  it('verifies keys by a signed token: on add and through gpg_key_verify', async () => {
    const token = await t.request('GET', '/api/v1/user/gpg_key_token', {
      headers: { authorization: `Basic ${Buffer.from('bob:password123!').toString('base64')}` },
    });
    expect(token.statusCode).toBe(200);
    expect(token.body).toMatch(/^[0-9a-f]{64}$/);
    const bad = await api('POST', '/user/gpg_keys', 'bob', {
      armored_public_key: keys.bob.armored,
      armored_signature: keys.sign(keys.alice.fpr, token.body),
    });
    expect(bad.status).toBe(422);
    expect(bad.json.message).toMatch(/^The provided GPG key, signature and token do not match/);
    const added = await api('POST', '/user/gpg_keys', 'bob', {
      armored_public_key: keys.bob.armored,
      armored_signature: keys.sign(keys.bob.fpr, `${token.body}\n`),
    });
    expect(added.status).toBe(201);
    expect(added.json).toMatchObject({ key_id: keys.bob.keyId, verified: true, emails: [] });

    const aliceToken = (
      await t.request('GET', '/api/v1/user/gpg_key_token', {
        headers: { authorization: `Basic ${Buffer.from('alice:password123!').toString('base64')}` },
      })
    ).body;
    const wrong = await api('POST', '/user/gpg_key_verify', 'alice', {
      key_id: keys.alice.keyId,
      armored_signature: keys.sign(keys.bob.fpr, aliceToken),
    });
    expect(wrong.status).toBe(422);
    const verified = await api('POST', '/user/gpg_key_verify', 'alice', {
      key_id: keys.alice.keyId,
      armored_signature: keys.sign(keys.alice.fpr, aliceToken),
    });
    expect(verified.status).toBe(200);
    expect(verified.json).toMatchObject({ key_id: keys.alice.keyId, verified: true });
    expect((await api('POST', '/user/gpg_key_verify', 'alice', { key_id: keys.bob.keyId, armored_signature: 'x' })).status).toBe(404);
  });

  it('shows verified, unsigned, unknown-key and tampered commits as Gitea does', async () => {
    const dir = await f.workTree('alice', 'demo', 'alice');
    const signed = await commit(dir, 'signed.txt', keys.alice.fpr);
    const unknown = await commit(dir, 'unknown.txt', keys.stranger.fpr);
    const plain = await commit(dir, 'plain.txt', null);
    const tampered = await tamperedCommit(f.git, dir, signed, 'add signed.txt', 'add evil.txt');
    await f.git.ok(['push', '-q', 'origin', `${plain}:refs/heads/main`, `${tampered}:refs/heads/tampered`], { cwd: dir });

    const ok = await verification(signed);
    expectVerifiedByAlice(ok, `alice / ${keys.alice.keyId}`, 'PGP');
    expect(await verification(unknown)).toMatchObject({ verified: false, reason: 'gpg.error.no_gpg_keys_found', signer: null });
    expect(await verification(plain)).toEqual({
      verified: false,
      reason: 'gpg.error.not_signed_commit',
      signature: '',
      signer: null,
      payload: '',
    });
    expect(await verification(tampered)).toMatchObject({ verified: false, reason: 'gpg.error.probable_bad_signature' });

    const list = await api('GET', '/repos/alice/demo/commits?limit=3', 'alice');
    const reasons = (list.json as unknown as Array<{ sha: string; commit: { verification: { reason: string } } }>).map(
      (c) => c.commit.verification.reason,
    );
    expect(reasons).toEqual(['gpg.error.not_signed_commit', 'gpg.error.no_gpg_keys_found', `alice / ${keys.alice.keyId}`]);
    const branch = await api('GET', '/repos/alice/demo/branches/tampered', 'alice');
    expect((branch.json.commit as { verification: { reason: string } }).verification.reason).toBe('gpg.error.probable_bad_signature');

    // The graph's Commit.signature (GitHub's GitSignature) is the same verification: one git read and one pass for
    // the four commits, whatever their number.
    const sigOf = (alias: string, sha: string) =>
      `${alias}: object(oid: "${sha}") { ... on Commit { signature { __typename email isValid state payload signature signer { login } ... on GpgSignature { keyId } } } }`;
    const res = await t.graphql(
      `{ repository(owner: "alice", name: "demo") { ${sigOf('signed', signed)} ${sigOf('unknown', unknown)} ${sigOf('plain', plain)} ${sigOf('tampered', tampered)} } }`,
      {},
      { authorization: `token ${await t.createToken('alice', ['read:repository', 'read:user'])}` },
    );
    const body = res.json() as { data: { repository: Record<string, { signature: Record<string, unknown> | null }> }; errors?: unknown };
    expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
    const graph = body.data.repository;
    expect(graph.signed?.signature).toMatchObject({
      __typename: 'GpgSignature',
      email: 'alice@example.com',
      isValid: true,
      state: 'VALID',
      signer: { login: 'alice' },
      keyId: keys.alice.keyId,
      signature: ok.signature,
      payload: ok.payload,
    });
    expect(graph.unknown?.signature).toMatchObject({ isValid: false, state: 'UNKNOWN_KEY', signer: null, email: 'alice@example.com' });
    expect(graph.plain?.signature).toBeNull();
    expect(graph.tampered?.signature).toMatchObject({ __typename: 'GpgSignature', isValid: false, state: 'INVALID' });
  });

  it('verifies GPG-signed annotated tags against the tagger in REST and the graph', async () => {
    const dir = await f.workTree('alice', 'demo', 'alice');
    const target = (await f.git.ok(['rev-parse', 'HEAD'], { cwd: dir })).trim();
    const tag = async (name: string, fpr: string) => {
      await f.git.ok(
        [
          '-c',
          `user.signingkey=${fpr}`,
          '-c',
          'user.name=Alice',
          '-c',
          'user.email=alice@example.com',
          'tag',
          '-s',
          name,
          '-m',
          name,
          target,
        ],
        {
          cwd: dir,
          env: env(),
        },
      );
      return (await f.git.ok(['rev-parse', name], { cwd: dir })).trim();
    };
    const good = await tag('gpg-good', keys.alice.fpr);
    const unknown = await tag('gpg-unknown', keys.stranger.fpr);
    await f.git.ok(['push', '-q', 'origin', 'gpg-good', 'gpg-unknown'], { cwd: dir });
    const verified = (await api('GET', `/repos/alice/demo/git/tags/${good}`, 'alice')).json.verification;
    expect(verified).toMatchObject({
      verified: true,
      reason: `alice / ${keys.alice.keyId}`,
      signer: { username: 'alice', email: 'alice@example.com' },
      signature: expect.stringMatching(/^-----BEGIN PGP SIGNATURE-----\n/),
      payload: expect.stringMatching(/^object [0-9a-f]{40}\ntype commit\ntag gpg-good\n/),
    });
    expect((await api('GET', `/repos/alice/demo/git/tags/${unknown}`, 'alice')).json.verification).toMatchObject({
      verified: false,
      reason: 'gpg.error.no_gpg_keys_found',
    });
    const sigOf = (alias: string, sha: string) =>
      `${alias}: object(oid: "${sha}") { ... on Tag { signature { __typename isValid state signer { login } ... on GpgSignature { keyId } } } }`;
    const res = await t.graphql(
      `{ repository(owner: "alice", name: "demo") { ${sigOf('good', good)} ${sigOf('unknown', unknown)} } }`,
      {},
      { authorization: `token ${await t.createToken('alice', ['read:repository', 'read:user'])}` },
    );
    const body = res.json() as { data: { repository: Record<string, { signature: unknown }> }; errors?: unknown };
    expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
    expect(body.data.repository.good?.signature).toEqual({
      __typename: 'GpgSignature',
      isValid: true,
      state: 'VALID',
      signer: { login: 'alice' },
      keyId: keys.alice.keyId,
    });
    expect(body.data.repository.unknown?.signature).toMatchObject({ isValid: false, state: 'UNKNOWN_KEY', keyId: keys.stranger.keyId });
  });

  it('refuses unsigned pushes and API writes to a branch requiring signed commits', async () => {
    const rule = await api('POST', '/repos/alice/demo/branch_protections', 'alice', {
      rule_name: 'main',
      enable_push: true,
      require_signed_commits: true,
    });
    expect(rule.status).toBe(201);
    const dir = await f.workTree('alice', 'demo', 'alice');
    await f.git.ok(['checkout', '-q', '-B', 'work', 'origin/main'], { cwd: dir });
    const unsigned = await commit(dir, 'unsigned.txt', null);
    const refused = await f.git.run(['push', 'origin', 'HEAD:refs/heads/main'], { cwd: dir });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(`branch main is protected from unverified commit ${unsigned}`);

    await f.git.ok(['reset', '-q', '--hard', 'origin/main'], { cwd: dir });
    const signed = await commit(dir, 'good.txt', keys.alice.fpr);
    const pushed = await f.git.run(['push', 'origin', 'HEAD:refs/heads/main'], { cwd: dir });
    expect(pushed.code, pushed.stderr).toBe(0);
    expect((await api('GET', '/repos/alice/demo/branches/main', 'alice')).json.commit).toMatchObject({ id: signed });

    const write = await api('POST', '/repos/alice/demo/contents/api.txt', 'alice', { content: Buffer.from('x').toString('base64') });
    expect(write).toMatchObject({ status: 403, json: { message: 'user cannot commit to repo [user: alice]' } });

    // The server signs nothing, so no merge can land on the branch (Gitea ErrWontSign), even a forced one.
    const tip = (await api('GET', '/repos/alice/demo/branches/main', 'alice')).json.commit as { id: string };
    await f.push('alice', 'demo', 'alice', 'feature', { 'feature.txt': 'feature\n' });
    const { json: pull } = await f.open('alice', 'demo', 'alice', { head: 'feature', base: 'main' });
    for (const body of [{ Do: 'merge' }, { Do: 'squash', force_merge: true }]) {
      const merge = await api('POST', `/repos/alice/demo/pulls/${String(pull.number)}/merge`, 'alice', body);
      expect(merge).toMatchObject({ status: 405, json: { message: 'wont sign: nokey' } });
    }
    expect((await api('GET', '/repos/alice/demo/branches/main', 'alice')).json.commit).toMatchObject({ id: tip.id });
  });

  it('answers that no signing key is configured', async () => {
    for (const url of ['/api/v1/signing-key.gpg', '/api/v1/repos/alice/demo/signing-key.gpg']) {
      const res = await t.request('GET', url);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ message: 'no signing key' });
    }
    expect((await t.request('GET', '/api/v1/repos/alice/nothing/signing-key.gpg')).statusCode).toBe(404);
  });
});

afterAll(() => keys.dispose());
