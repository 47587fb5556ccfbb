// Packages in the graph: User/Organization/Repository.packages, versions, latestVersion, files, node(id:), and
// the package read policy (a private organization's packages are absent for outsiders).
import { encodeGlobalID } from '@pothos/plugin-relay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import { basic, startTestApp, tokenAuth, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { createRepo } from '../helpers/fixtures.ts';
import { mutationError, type GqlError } from '../helpers/graphql.ts';
import { createOrgAs } from '../helpers/org.ts';

const PACKAGES = `query($login: String!) {
  user(login: $login) {
    packages(first: 10) {
      totalCount
      nodes {
        id name packageType owner { login }
        repository { name }
        versions(first: 10) { totalCount nodes { version creator { login } files(first: 5) { nodes { name size sha256 } } } }
      }
    }
  }
}`;

describe.each(PROVIDERS)('GraphQL packages (%s)', (provider) => {
  let t: TestApp;
  let owner: Models.User;
  let other: Models.User;
  let org: Models.User;
  const upload = async (as: string, ownerName: string, name: string, version: string, file = 'f.bin', body = 'data') => {
    const res = await t.app.server.inject({
      method: 'PUT',
      url: `/api/packages/${ownerName}/generic/${name}/${version}/${file}`,
      headers: basic(as),
      payload: body,
    });
    expect(res.statusCode).toBe(201);
  };

  beforeAll(async () => {
    t = await startTestApp(provider);
    owner = await t.createUser('gq-pkg-owner');
    other = await t.createUser('gq-pkg-other');
    org = await createOrgAs(t, owner, 'gq-pkg-org', 'PRIVATE');
    await upload(owner.name, owner.name, 'alpha', '1.0');
    await upload(owner.name, owner.name, 'alpha', '2.0');
    await upload(owner.name, owner.name, 'beta', '0.1');
    await upload(owner.name, org.name, 'secret', '1');
    const repo = await createRepo(t, owner, 'gq-linked');
    const link = await t.request('POST', `/api/v1/packages/${owner.name}/generic/alpha/-/link/${repo.name}`, {
      headers: basic(owner.name),
    });
    expect(link.statusCode).toBe(201);
  });
  afterAll(() => t.close());

  it('lists an account’s packages with versions (latest first), files and the linked repository', async () => {
    const res = await t.graphql(PACKAGES, { login: owner.name }, basic(other.name));
    const body = res.json() as { errors?: unknown; data: { user: { packages: { totalCount: number; nodes: Record<string, unknown>[] } } } };
    expect(body.errors).toBeUndefined();
    const { packages } = body.data.user;
    expect(packages.totalCount).toBe(2);
    const [alpha, beta] = packages.nodes as [Record<string, unknown>, Record<string, unknown>];
    expect(alpha).toMatchObject({
      name: 'alpha',
      packageType: 'GENERIC',
      owner: { login: owner.name },
      repository: { name: 'gq-linked' },
      versions: {
        totalCount: 2,
        nodes: [{ version: '2.0', creator: { login: owner.name }, files: { nodes: [{ name: 'f.bin', size: 4 }] } }, { version: '1.0' }],
      },
    });
    expect(beta).toMatchObject({ name: 'beta', repository: null, versions: { totalCount: 1 } });
  });

  it("Gitea's container registry is GitHub's DOCKER package type, in the answer and the packageType filter", async () => {
    // No container package can be uploaded yet (the registry is not served), so one row is switched for the test.
    const beta = await t.db.package.findFirstOrThrow({ where: { ownerId: owner.id, lowerName: 'beta' } });
    await t.db.package.update({ where: { id: beta.id }, data: { type: 'CONTAINER' } });
    try {
      const q = (arg: string) =>
        t.graphql(
          `query($login: String!) { user(login: $login) { packages(first: 10${arg}) { totalCount nodes { name packageType } } } }`,
          {
            login: owner.name,
          },
          basic(owner.name),
        );
      const all = (await q('')).json() as { data: { user: { packages: { nodes: { name: string; packageType: string }[] } } } };
      expect(all.data.user.packages.nodes).toEqual([
        { name: 'alpha', packageType: 'GENERIC' },
        { name: 'beta', packageType: 'DOCKER' },
      ]);
      expect((await q(', packageType: DOCKER')).json()).toEqual({
        data: { user: { packages: { totalCount: 1, nodes: [{ name: 'beta', packageType: 'DOCKER' }] } } },
      });
      expect(((await q(', packageType: CONTAINER')).json() as { errors?: unknown[] }).errors).toHaveLength(1);
    } finally {
      await t.db.package.update({ where: { id: beta.id }, data: { type: beta.type } });
    }
  });

  it('a private organization’s packages are absent for outsiders and visible to members; node(id:) follows', async () => {
    const query = `query($login: String!) { organization(login: $login) { packages(first: 5) { totalCount nodes { id name } } } }`;
    const mine = (await t.graphql(query, { login: org.name }, basic(owner.name))).json() as {
      data: { organization: { packages: { totalCount: number; nodes: { id: string; name: string }[] } } };
    };
    expect(mine.data.organization.packages.totalCount).toBe(1);
    const id = mine.data.organization.packages.nodes[0]?.id;
    const theirs = (await t.graphql(query, { login: org.name }, basic(other.name))).json() as { data: { organization: unknown } };
    expect(theirs.data.organization).toBeNull();
    const node = `query($id: ID!) { node(id: $id) { ... on Package { name } } }`;
    expect(((await t.graphql(node, { id }, basic(other.name))).json() as { data: { node: unknown } }).data.node).toBeNull();
    expect(((await t.graphql(node, { id }, basic(owner.name))).json() as { data: { node: unknown } }).data.node).toEqual({
      name: 'secret',
    });
  });

  it('Repository.packages lists linked packages; a token without read:package is refused', async () => {
    const query = `query { repository(owner: "${owner.name}", name: "gq-linked") { packages(first: 5) { nodes { name } } } }`;
    const res = (await t.graphql(query, {}, basic(owner.name))).json() as { data: { repository: { packages: { nodes: unknown[] } } } };
    expect(res.data.repository.packages.nodes).toEqual([{ name: 'alpha' }]);
    const token = await t.createToken(owner.name, ['read:user']);
    const denied = (await t.graphql(PACKAGES, { login: owner.name }, tokenAuth(token))).json() as { errors?: unknown[] };
    expect(denied.errors?.length).toBeGreaterThan(0);
  });

  it('the statement count of User.packages depends on the query, not on the number of packages', async () => {
    const count = async (login: string) => {
      t.queries.length = 0;
      const res = (await t.graphql(PACKAGES, { login }, basic(owner.name))).json() as { errors?: unknown };
      expect(res.errors).toBeUndefined();
      return t.queries.length;
    };
    const few = await t.createUser('gq-pkg-few');
    const many = await t.createUser('gq-pkg-many');
    await upload(few.name, few.name, 'only', '1.0');
    for (let i = 0; i < 8; i++) await upload(many.name, many.name, `p${i % 4}`, `${i}.0`);
    expect(await count(many.name)).toBe(await count(few.name));
  });

  it('mutations: unlinkPackage, linkPackage and deletePackageVersion call the package services', async () => {
    const pkg = await t.db.package.findFirstOrThrow({ where: { ownerId: owner.id, lowerName: 'alpha' }, include: { versions: true } });
    /** Runs mutation `name`: its payload (`__typename` only) and its error (mutationError). */
    const run = async (name: string, input: Record<string, unknown>, as = owner.name) => {
      const cap = name.charAt(0).toUpperCase() + name.slice(1);
      const q = `mutation($input: ${cap}Input!) { ${name}(input: $input) { __typename } }`;
      const body = (await t.graphql(q, { input }, basic(as))).json() as {
        data?: Record<string, { __typename: string } | null>;
        errors?: GqlError[];
      };
      return { payload: body.data?.[name] ?? null, error: mutationError({ data: body.data, errors: body.errors }, name) };
    };
    expect(await run('unlinkPackage', { packageId: encodeGlobalID('Package', pkg.id) })).toEqual({
      payload: { __typename: 'UnlinkPackagePayload' },
      error: null,
    });
    expect((await t.db.package.findUniqueOrThrow({ where: { id: pkg.id } })).repoId).toBeNull();
    expect(await run('linkPackage', { packageId: encodeGlobalID('Package', pkg.id), repositoryName: 'gq-linked' })).toEqual({
      payload: { __typename: 'LinkPackagePayload' },
      error: null,
    });
    const version = pkg.versions.find((v) => v.version === '1.0');
    const denied = await run('deletePackageVersion', { packageVersionId: encodeGlobalID('PackageVersion', version?.id ?? 0) }, other.name);
    expect(denied.payload).toBeNull();
    expect(denied.error?.code).toBe('PERMISSION_DENIED');
    expect(await t.db.packageVersion.count({ where: { packageId: pkg.id } })).toBe(2);
    expect(await run('deletePackageVersion', { packageVersionId: encodeGlobalID('PackageVersion', version?.id ?? 0) })).toEqual({
      payload: { __typename: 'DeletePackageVersionPayload' },
      error: null,
    });
    expect(await t.db.packageVersion.count({ where: { packageId: pkg.id } })).toBe(1);
  });
});
