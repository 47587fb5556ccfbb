import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, tokenAuth, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { gql, mutationError, repoGlobalId } from '../helpers/graphql.ts';

/**
 * Both doors refuse the same writes with the same words (issue #10 finding 1): a token that only reads, and a
 * public-only token on private resources. REST answers with Gitea's status and message; the GraphQL mutation
 * calling the same service answers with the typed error carrying the same message.
 */

const READ_ONLY = ['read:repository', 'read:issue', 'read:organization', 'read:user'];
const PUBLIC_ONLY_WRITER = ['public-only', 'write:repository', 'write:organization', 'write:issue', 'read:user'];

/** A fresh OpenSSH ed25519 public key line. */
function sshKey(comment: string): string {
  const der = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'der' });
  const field = (b: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, b.length]), b]);
  return `ssh-ed25519 ${Buffer.concat([field(Buffer.from('ssh-ed25519')), field(der.subarray(der.length - 32))]).toString('base64')} ${comment}`;
}

/** A mutation's outcome: its payload's type name, or its error's code and message. */
interface Typed {
  __typename?: string;
  code?: string;
  message?: string;
}

describe.each(PROVIDERS)('the write gate answers alike through REST and GraphQL (%s)', (provider) => {
  let t: TestApp;
  let readOnly: Record<string, string>;
  let publicOnly: Record<string, string>;
  let keyId = 0;

  async function mutate(name: string, input: Record<string, unknown>, headers: Record<string, string>): Promise<Typed> {
    const cap = name.charAt(0).toUpperCase() + name.slice(1);
    const res = await gql<Record<string, { __typename: string } | null>>(
      t,
      `mutation($input: ${cap}Input!) { ${name}(input: $input) { __typename } }`,
      {
        variables: { input },
        headers,
      },
    );
    const error = mutationError(res, name);
    if (error) return { code: error.code, message: error.message };
    const payload = res.data?.[name];
    if (!payload) throw new Error(`no ${name} result`);
    return { __typename: payload.__typename };
  }

  async function rest(method: string, url: string, headers: Record<string, string>, body?: unknown) {
    const res = await t.request(method, `/api/v1${url}`, { headers, ...(body === undefined ? {} : { body }) });
    return { status: res.statusCode, message: res.body ? (JSON.parse(res.body) as { message?: string }).message : undefined };
  }

  const repoRow = () => t.db.repository.findFirstOrThrow({ where: { lowerName: 'secret' } });

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('owner');
    await t.createUser('friend');
    for (const [name, priv] of [
      ['secret', true],
      ['open', false],
    ] as const) {
      expect((await t.request('POST', '/api/v1/user/repos', { headers: basic('owner'), body: { name, private: priv } })).statusCode).toBe(
        201,
      );
    }
    for (const [name, visibility] of [
      ['hidden', 'private'],
      ['shown', 'public'],
    ] as const) {
      expect((await t.request('POST', '/api/v1/orgs', { headers: basic('owner'), body: { username: name, visibility } })).statusCode).toBe(
        201,
      );
    }
    const key = await t.request('POST', '/api/v1/repos/owner/secret/keys', {
      headers: basic('owner'),
      body: { title: 'deploy', key: sshKey('deploy@test') },
    });
    expect(key.statusCode, key.body).toBe(201);
    keyId = (key.json() as { id: number }).id;
    expect(
      (await t.request('PUT', '/api/v1/repos/owner/secret/collaborators/friend', { headers: basic('owner'), body: {} })).statusCode,
    ).toBe(204);
    readOnly = tokenAuth(await t.createToken('owner', READ_ONLY));
    publicOnly = tokenAuth(await t.createToken('owner', PUBLIC_ONLY_WRITER));
  });
  afterAll(() => t.close());

  // Gitea prints the token's scopes in its own order.
  const denied =
    'token does not have at least one of required scope(s), required=[write:repository], token scope=read:organization,read:issue,read:repository,read:user';

  it('a read-only token cannot make a private repository public, through either door', async () => {
    const viaRest = await rest('PATCH', '/repos/owner/secret', readOnly, { private: false });
    expect(viaRest).toEqual({ status: 403, message: expect.stringContaining('required=[write:repository]') });
    expect(
      await mutate('updateRepository', { repositoryId: await repoGlobalId(t, 'owner', 'secret'), isPrivate: false }, readOnly),
    ).toEqual({
      code: 'PERMISSION_DENIED',
      message: viaRest.message,
    });
    expect((await repoRow()).isPrivate).toBe(true);
  });

  it('nor grant admin, remove a collaborator, add or remove a deploy key', async () => {
    const evil = sshKey('evil@test');
    const cases: [string, string, unknown, string, Record<string, unknown>][] = [
      [
        'PUT',
        '/repos/owner/secret/collaborators/friend',
        { permission: 'admin' },
        'addCollaborator',
        { login: 'friend', permission: 'ADMIN' },
      ],
      ['DELETE', '/repos/owner/secret/collaborators/friend', undefined, 'removeCollaborator', { login: 'friend' }],
      ['POST', '/repos/owner/secret/keys', { title: 'evil', key: evil }, 'createDeployKey', { title: 'evil', key: evil }],
      ['DELETE', `/repos/owner/secret/keys/${keyId}`, undefined, 'deleteDeployKey', { keyId }],
    ];
    for (const [method, url, body, mutation, input] of cases) {
      const viaRest = await rest(method, url, readOnly, body);
      expect(viaRest, `${method} ${url}`).toEqual({ status: 403, message: denied });
      expect(await mutate(mutation, { owner: 'owner', name: 'secret', ...input }, readOnly), mutation).toEqual({
        code: 'PERMISSION_DENIED',
        message: denied,
      });
    }
    const repo = await repoRow();
    expect(await t.db.collaboration.findMany({ where: { repoId: repo.id }, select: { mode: true } })).toEqual([{ mode: 'WRITE' }]);
    expect(await t.db.deployKey.findMany({ where: { repoId: repo.id }, select: { name: true } })).toEqual([{ name: 'deploy' }]);
  });

  it('a public-only token does not find private repositories to write to (404), and writes to public ones', async () => {
    expect(await rest('PATCH', '/repos/owner/secret', publicOnly, { description: 'x' })).toMatchObject({ status: 404 });
    expect(
      await mutate('updateRepository', { repositoryId: await repoGlobalId(t, 'owner', 'secret'), description: 'x' }, publicOnly),
    ).toMatchObject({
      code: 'NOT_FOUND',
    });
    expect((await rest('PATCH', '/repos/owner/open', publicOnly, { description: 'fine' })).status).toBe(200);
    expect((await repoRow()).description).toBe('');
  });

  it('a public-only token may not write to a non-public organization (403, Gitea checkTokenPublicOnly)', async () => {
    const limited = { status: 403, message: 'token scope is limited to public orgs' };
    expect(await rest('PATCH', '/orgs/hidden', publicOnly, { description: 'x' })).toEqual(limited);
    expect(await rest('POST', '/orgs/hidden/labels', publicOnly, { name: 'bug', color: '#ff0000' })).toEqual(limited);
    expect(await rest('POST', '/orgs/hidden/repos', publicOnly, { name: 'sneaky' })).toEqual(limited);
    expect(await mutate('updateOrganization', { login: 'hidden', description: 'x' }, publicOnly)).toEqual({
      code: 'PERMISSION_DENIED',
      message: limited.message,
    });
    expect((await rest('PATCH', '/orgs/shown', publicOnly, { description: 'fine' })).status).toBe(200);
    const hidden = await t.db.user.findFirstOrThrow({ where: { lowerName: 'hidden' } });
    expect(hidden.description).toBe('');
    expect(await t.db.label.count({ where: { orgId: hidden.id } })).toBe(0);
    expect(await t.db.repository.count({ where: { ownerId: hidden.id } })).toBe(0);
  });
});
