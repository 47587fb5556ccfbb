import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { addCollaborator, createRepo } from '../helpers/fixtures.ts';
import { gql, mutationError, type MutationError } from '../helpers/graphql.ts';

const as = (viewer: string): Record<string, string> => (viewer === 'anon' ? {} : basic(viewer));
type Json = Record<string, unknown>;

interface GqlRelease {
  id: string;
  databaseId: number;
  tagName: string;
  name: string | null;
  description: string | null;
  isDraft: boolean;
  isPrerelease: boolean;
  isLatest: boolean;
  publishedAt: string | null;
  url: string;
  author: { login: string } | null;
  releaseAssets: {
    totalCount: number;
    nodes: Array<{ name: string; size: number; contentType: string; downloadCount: number; downloadUrl: string }>;
  };
}

const RELEASE = `id databaseId tagName name description isDraft isPrerelease isLatest publishedAt url author { login }
  releaseAssets(first: 10) { totalCount nodes { name size contentType downloadCount downloadUrl } }`;

describe.each(PROVIDERS)('GraphQL releases (%s)', (provider) => {
  let t: TestApp;

  async function q<T = Json>(viewer: string, query: string, variables?: Record<string, unknown>): Promise<T> {
    const res = await gql<T>(t, query, { headers: as(viewer), variables });
    expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
    return res.data as T;
  }

  /** Runs a mutation that must be refused: its error (mutationError), never a payload. */
  async function refused(viewer: string, query: string, name: string, variables?: Record<string, unknown>): Promise<MutationError | null> {
    const res = await gql(t, query, { headers: as(viewer), variables });
    return mutationError(res, name);
  }

  beforeAll(async () => {
    t = await startTestApp(provider);
    const owner = await t.createUser('owner');
    const reader = await t.createUser('reader');
    await t.createUser('stranger');
    await t.createUser('root', { admin: true });
    const uploader = await t.createUser('uploader');
    const pub = await createRepo(t, owner, 'pub', { autoInit: true });
    const priv = await createRepo(t, owner, 'priv', { autoInit: true, private: true });
    await addCollaborator(t, pub, reader, 'read');
    await addCollaborator(t, pub, uploader, 'write');
    await addCollaborator(t, priv, reader, 'read');
  });
  afterAll(async () => {
    await t.close();
  });

  const CREATE = `mutation($input: CreateReleaseInput!) {
    createRelease(input: $input) { release { ${RELEASE} } }
  }`;

  it('creates releases through the same service as REST; reads them with GitHub names', async () => {
    const created = await q<{ createRelease: { release: GqlRelease } }>('owner', CREATE, {
      input: { repositoryOwner: 'owner', repositoryName: 'pub', tagName: 'v1.0', name: 'One', description: 'notes' },
    });
    expect(created.createRelease.release).toMatchObject({
      tagName: 'v1.0',
      name: 'One',
      description: 'notes',
      isDraft: false,
      isPrerelease: false,
      isLatest: true,
      url: 'http://localhost:3000/owner/pub/releases/tag/v1.0',
      author: { login: 'owner' },
      releaseAssets: { totalCount: 0, nodes: [] },
    });
    // Visible through REST, with its tag.
    const rest = await t.request('GET', '/api/v1/repos/owner/pub/releases/tags/v1.0');
    expect(rest.json<{ id: number }>().id).toBe(created.createRelease.release.databaseId);
    expect((await t.request('GET', '/api/v1/repos/owner/pub/tags/v1.0')).statusCode).toBe(200);

    await q('owner', CREATE, { input: { repositoryOwner: 'owner', repositoryName: 'pub', tagName: 'v2.0-rc', isPrerelease: true } });
    await q('owner', CREATE, { input: { repositoryOwner: 'owner', repositoryName: 'pub', tagName: 'v3.0', isDraft: true } });
    const upload = await t.app.server.inject({
      method: 'POST',
      url: `/api/v1/repos/owner/pub/releases/${created.createRelease.release.databaseId}/assets?name=app.zip`,
      headers: { ...basic('owner'), 'content-type': 'application/octet-stream' },
      payload: Buffer.from('zipbytes'),
    });
    expect(upload.statusCode).toBe(201);

    const REPO = `query { repository(owner: "owner", name: "pub") {
      releases(first: 10) { totalCount nodes { tagName isDraft isLatest } }
      release(tagName: "V1.0") { ${RELEASE} tagCommit { oid messageHeadline } }
      latestRelease { tagName }
    } }`;
    type RepoData = {
      repository: {
        releases: { totalCount: number; nodes: Array<{ tagName: string; isDraft: boolean; isLatest: boolean }> };
        release: (GqlRelease & { tagCommit: { oid: string; messageHeadline: string } | null }) | null;
        latestRelease: { tagName: string } | null;
      };
    };
    const own = await q<RepoData>('owner', REPO);
    expect(own.repository.releases.nodes.map((r) => r.tagName)).toEqual(['v3.0', 'v2.0-rc', 'v1.0']);
    expect(own.repository.releases.totalCount).toBe(3);
    expect(own.repository.releases.nodes.map((r) => r.isLatest)).toEqual([false, false, true]);
    expect(own.repository.latestRelease?.tagName).toBe('v1.0');
    const tag = await t.request('GET', '/api/v1/repos/owner/pub/tags/v1.0');
    expect(own.repository.release?.tagCommit).toEqual({
      oid: tag.json<{ commit: { sha: string } }>().commit.sha,
      messageHeadline: 'Initial commit',
    });
    expect(own.repository.release?.releaseAssets).toEqual({
      totalCount: 1,
      nodes: [
        {
          name: 'app.zip',
          size: 8,
          contentType: 'application/zip',
          downloadCount: 0,
          downloadUrl: expect.stringMatching(/^http:\/\/localhost:3000\/attachments\//),
        },
      ],
    });
    // GitHub's releaseAssets(name:): only the asset of that exact name.
    const second = await t.app.server.inject({
      method: 'POST',
      url: `/api/v1/repos/owner/pub/releases/${created.createRelease.release.databaseId}/assets?name=app.tar.gz`,
      headers: { ...basic('owner'), 'content-type': 'application/octet-stream' },
      payload: Buffer.from('tarbytes'),
    });
    expect(second.statusCode).toBe(201);
    const byName = async (name: string) =>
      (
        await q<{ repository: { release: { releaseAssets: { totalCount: number; nodes: { name: string }[] } } } }>(
          'owner',
          `query { repository(owner: "owner", name: "pub") { release(tagName: "v1.0") { releaseAssets(first: 5, name: "${name}") { totalCount nodes { name } } } } }`,
        )
      ).repository.release.releaseAssets;
    expect(await byName('app.tar.gz')).toEqual({ totalCount: 1, nodes: [{ name: 'app.tar.gz' }] });
    expect(await byName('app')).toEqual({ totalCount: 0, nodes: [] });
    // Drafts are for writers: readers and anonymous viewers do not see v3.0.
    for (const viewer of ['reader', 'anon']) {
      const seen = await q<RepoData>(viewer, REPO);
      expect(seen.repository.releases.nodes.map((r) => r.tagName)).toEqual(['v2.0-rc', 'v1.0']);
      expect(seen.repository.releases.totalCount).toBe(2);
    }
  });

  it('keeps drafts and private releases out of node(id:) for those who may not see them', async () => {
    const draft = await q<{ createRelease: { release: GqlRelease } }>('owner', CREATE, {
      input: { repositoryOwner: 'owner', repositoryName: 'pub', tagName: 'v9-draft', isDraft: true },
    });
    const priv = await q<{ createRelease: { release: GqlRelease } }>('owner', CREATE, {
      input: { repositoryOwner: 'owner', repositoryName: 'priv', tagName: 'p1' },
    });
    const NODE = 'query($id: ID!) { node(id: $id) { ... on Release { tagName } } }';
    expect((await q<{ node: unknown }>('owner', NODE, { id: draft.createRelease.release.id })).node).toEqual({ tagName: 'v9-draft' });
    expect((await q<{ node: unknown }>('reader', NODE, { id: draft.createRelease.release.id })).node).toBeNull();
    expect((await q<{ node: unknown }>('reader', NODE, { id: priv.createRelease.release.id })).node).toEqual({ tagName: 'p1' });
    expect((await q<{ node: unknown }>('stranger', NODE, { id: priv.createRelease.release.id })).node).toBeNull();
    expect(
      (await q<{ repository: unknown }>('stranger', 'query { repository(owner: "owner", name: "priv") { id } }')).repository,
    ).toBeNull();
  });

  it('updates (publishing a draft creates its tag) and deletes; refuses readers', async () => {
    const draft = await q<{ createRelease: { release: GqlRelease } }>('owner', CREATE, {
      input: { repositoryOwner: 'owner', repositoryName: 'pub', tagName: 'v5', isDraft: true, name: 'Five' },
    });
    const id = draft.createRelease.release.id;
    const UPDATE = `mutation($input: UpdateReleaseInput!) {
      updateRelease(input: $input) { release { tagName isDraft name publishedAt } }
    }`;
    // A draft is hidden from readers: refused as missing.
    expect((await refused('reader', UPDATE, 'updateRelease', { input: { id, isDraft: false } }))?.code).toBe('NOT_FOUND');
    expect((await t.request('GET', '/api/v1/repos/owner/pub/tags/v5')).statusCode).toBe(404);
    const published = await q<{ updateRelease: { release: { isDraft: boolean; name: string; publishedAt: string | null } } }>(
      'owner',
      UPDATE,
      {
        input: { id, isDraft: false },
      },
    );
    expect(published.updateRelease.release).toMatchObject({ isDraft: false, name: 'Five' });
    expect(published.updateRelease.release.publishedAt).not.toBeNull();
    expect((await t.request('GET', '/api/v1/repos/owner/pub/tags/v5')).statusCode).toBe(200);

    const DELETE = `mutation($input: DeleteReleaseInput!) {
      deleteRelease(input: $input) { deletedReleaseId }
    }`;
    expect((await refused('reader', DELETE, 'deleteRelease', { input: { id } }))?.code).toBe('PERMISSION_DENIED');
    const deleted = await q<{ deleteRelease: { deletedReleaseId: string } }>('owner', DELETE, { input: { id } });
    expect(deleted.deleteRelease.deletedReleaseId).toBe(id);
    expect((await t.request('GET', '/api/v1/repos/owner/pub/releases/tags/v5')).statusCode).toBe(404);
  });

  it('renames and deletes assets by global id; node(id:) hides the assets of drafts from readers', async () => {
    const rel = await q<{ createRelease: { release: GqlRelease } }>('owner', CREATE, {
      input: { repositoryOwner: 'owner', repositoryName: 'pub', tagName: 'v7', isDraft: true },
    });
    const up = await t.app.server.inject({
      method: 'POST',
      url: `/api/v1/repos/owner/pub/releases/${rel.createRelease.release.databaseId}/assets?name=a.txt`,
      headers: { ...basic('owner'), 'content-type': 'application/octet-stream' },
      payload: 'a',
    });
    const assetId = (
      await q<{ repository: { release: { releaseAssets: { nodes: Array<{ id: string; databaseId: number }> } } } }>(
        'owner',
        'query { repository(owner: "owner", name: "pub") { release(tagName: "v7") { releaseAssets(first: 5) { nodes { id databaseId } } } } }',
      )
    ).repository.release.releaseAssets.nodes[0]!;
    expect(assetId.databaseId).toBe(up.json<{ id: number }>().id);
    const NODE = 'query($id: ID!) { node(id: $id) { ... on ReleaseAsset { name release { tagName } } } }';
    expect((await q<{ node: unknown }>('owner', NODE, { id: assetId.id })).node).toEqual({ name: 'a.txt', release: { tagName: 'v7' } });
    expect((await q<{ node: unknown }>('reader', NODE, { id: assetId.id })).node).toBeNull();

    const RENAME = `mutation($input: UpdateReleaseAssetInput!) {
      updateReleaseAsset(input: $input) { releaseAsset { name } }
    }`;
    expect((await refused('reader', RENAME, 'updateReleaseAsset', { input: { id: assetId.id, name: 'x' } }))?.code).toBe('NOT_FOUND');
    const renamed = await q<{ updateReleaseAsset: { releaseAsset: { name: string } } }>('owner', RENAME, {
      input: { id: assetId.id, name: 'b.txt' },
    });
    expect(renamed.updateReleaseAsset.releaseAsset.name).toBe('b.txt');
    const DEL = `mutation($input: DeleteReleaseAssetInput!) {
      deleteReleaseAsset(input: $input) { deletedReleaseAssetId }
    }`;
    const deleted = await q<{ deleteReleaseAsset: { deletedReleaseAssetId: string } }>('owner', DEL, { input: { id: assetId.id } });
    expect(deleted.deleteReleaseAsset.deletedReleaseAssetId).toBe(assetId.id);
    expect(
      (
        await t.request('GET', `/api/v1/repos/owner/pub/releases/${rel.createRelease.release.databaseId}/assets`, {
          headers: basic('owner'),
        })
      ).json(),
    ).toEqual([]);
  });

  it("ReleaseAsset.uploadedBy: the uploader, then Gitea's Ghost (id -1) once the account is deleted", async () => {
    const rel = await q<{ createRelease: { release: GqlRelease } }>('owner', CREATE, {
      input: { repositoryOwner: 'owner', repositoryName: 'pub', tagName: 'v8' },
    });
    const up = await t.request('POST', `/api/v1/repos/owner/pub/releases/${rel.createRelease.release.databaseId}/assets?name=u.txt`, {
      headers: { ...basic('uploader'), 'content-type': 'application/octet-stream' },
      payload: 'u',
    });
    expect(up.statusCode, up.body).toBe(201);
    const ASSETS =
      'query { repository(owner: "owner", name: "pub") { release(tagName: "v8") { releaseAssets(first: 5) { nodes { name uploadedBy { login databaseId } } } } } }';
    type Assets = { repository: { release: { releaseAssets: { nodes: Json[] } } } };
    expect((await q<Assets>('reader', ASSETS)).repository.release.releaseAssets.nodes).toEqual([
      { name: 'u.txt', uploadedBy: { login: 'uploader', databaseId: expect.any(Number) } },
    ]);
    expect((await t.request('DELETE', '/api/v1/admin/users/uploader', { headers: basic('root') })).statusCode).toBe(204);
    expect((await q<Assets>('reader', ASSETS)).repository.release.releaseAssets.nodes).toEqual([
      { name: 'u.txt', uploadedBy: { login: 'Ghost', databaseId: -1 } },
    ]);
  });
});
