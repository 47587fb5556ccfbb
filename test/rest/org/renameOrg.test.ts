import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { gql } from '../../helpers/graphql.ts';
import { addMember, createOrgAs } from '../../helpers/org.ts';

/** POST /orgs/{org}/rename (owners) and GraphQL renameOrganization: the same service; the old name redirects. */
describe.each(PROVIDERS)('rename organization (%s)', (provider) => {
  let t: TestApp;
  const rename = (org: string, body: unknown, who?: string) =>
    t.request('POST', `/api/v1/orgs/${org}/rename`, { headers: who ? basic(who) : {}, body });

  beforeAll(async () => {
    t = await startTestApp(provider);
    const owner = await t.createUser('owner');
    const member = await t.createUser('member');
    await t.createUser('stranger');
    const acme = await createOrgAs(t, owner, 'acme');
    await createOrgAs(t, owner, 'secretorg', 'PRIVATE');
    await addMember(t, acme, member);
    const repo = await t.request('POST', '/api/v1/orgs/acme/repos', { headers: basic('owner'), body: { name: 'tool', auto_init: true } });
    expect(repo.statusCode).toBe(201);
  });
  afterAll(() => t?.close());

  it('only owners may rename; names are checked like new ones', async () => {
    expectGiteaError(await rename('acme', { new_name: 'acme2' }), 401);
    expectGiteaError(await rename('acme', { new_name: 'acme2' }, 'member'), 403);
    expectGiteaError(await rename('secretorg', { new_name: 'x' }, 'stranger'), 404);
    expectGiteaError(await rename('acme', {}, 'owner'), 422);
    expectGiteaError(await rename('acme', { new_name: 'stranger' }, 'owner'), 422, 'user already exists [name: stranger]');
    expectGiteaError(await rename('acme', { new_name: 'login' }, 'owner'), 422, 'name is reserved [name: login]');
  });

  it('renames through REST: repositories follow and the old name answers 307', async () => {
    expect((await rename('acme', { new_name: 'acme-labs' }, 'owner')).statusCode).toBe(204);
    expect((await t.request('GET', '/api/v1/orgs/acme-labs')).json()).toMatchObject({ name: 'acme-labs', username: 'acme-labs' });
    const old = await t.request('GET', '/api/v1/orgs/acme/members', { headers: basic('owner') });
    expect([old.statusCode, old.headers.location]).toEqual([307, '/api/v1/orgs/acme-labs/members']);
    const branches = await t.request('GET', '/api/v1/repos/acme-labs/tool/branches');
    expect(branches.json<Array<{ name: string }>>().map((b) => b.name)).toEqual(['main']);
    expect((await t.request('GET', '/api/v1/repos/acme-labs/tool')).json()).toMatchObject({ full_name: 'acme-labs/tool' });
  });

  it('renames through GraphQL with the same rules; repository(followRenames) finds the old owner name', async () => {
    const mutation = `mutation($login: String!, $newLogin: String!) {
      renameOrganization(input: { login: $login, newLogin: $newLogin }) { organization { login } }
    }`;
    const denied = await gql(t, mutation, { variables: { login: 'acme-labs', newLogin: 'x1' }, headers: basic('member') });
    expect(denied.errors?.[0]?.extensions?.code).toBe('PERMISSION_DENIED');
    const bad = await gql(t, mutation, { variables: { login: 'acme-labs', newLogin: 'bad name' }, headers: basic('owner') });
    expect(bad.errors?.[0]?.extensions?.code).toBe('VALIDATION');
    const ok = await gql<{ renameOrganization: { organization: { login: string } } }>(t, mutation, {
      variables: { login: 'acme-labs', newLogin: 'acme-works' },
      headers: basic('owner'),
    });
    expect(ok.errors).toBeUndefined();
    expect(ok.data?.renameOrganization.organization.login).toBe('acme-works');
    const found = await gql<{ repository: { nameWithOwner: string } | null }>(
      t,
      '{ repository(owner: "acme", name: "tool") { nameWithOwner } }',
    );
    expect(found.data?.repository?.nameWithOwner).toBe('acme-works/tool');
    const strict = await gql<{ repository: unknown }>(
      t,
      '{ repository(owner: "acme", name: "tool", followRenames: false) { nameWithOwner } }',
    );
    expect(strict.data?.repository ?? null).toBeNull();
  });
});
