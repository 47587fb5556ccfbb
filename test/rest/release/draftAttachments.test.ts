import { encodeGlobalID } from '@pothos/plugin-relay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { basic, startTestApp, tokenAuth, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { addCollaborator, createRepo } from '../../helpers/fixtures.ts';
import { gql } from '../../helpers/graphql.ts';

/**
 * Attachments follow their parent (issue #30 finding 3): a draft release's asset is read as the draft is, by those
 * who may write releases, on every route that serves it — `/attachments/{uuid}` (which served it to anyone), the
 * release download route, the API's asset routes and the graph's node(id:) — and becomes readable with its release.
 */
describe.each(PROVIDERS)('a draft release’s asset on every route (%s)', (provider) => {
  let t: TestApp;
  let releaseId: number;
  let asset: { id: number; uuid: string; gid: string };
  const api = '/api/v1/repos/alice/proj';
  let writerToken: string;
  let readOnlyToken: string;

  /** Every way to read the asset, as `headers`; the status each answered (GraphQL: 200 when the node is there, else 404). */
  async function statuses(headers: Record<string, string>): Promise<Record<string, number>> {
    const get = async (url: string) => (await t.app.server.inject({ method: 'GET', url, headers })).statusCode;
    const list = await t.app.server.inject({ method: 'GET', url: `${api}/releases/${releaseId}/assets`, headers });
    const node = await gql<{ node: { name: string } | null }>(t, `query($id: ID!) { node(id: $id) { ... on ReleaseAsset { name } } }`, {
      variables: { id: asset.gid },
      headers,
    });
    return {
      attachment: await get(`/attachments/${asset.uuid}`),
      download: await get('/alice/proj/releases/download/v2/draft.txt'),
      apiAsset: await get(`${api}/releases/${releaseId}/assets/${asset.id}`),
      apiAssets: list.statusCode === 200 && list.json<unknown[]>().length === 0 ? 404 : list.statusCode,
      graphqlNode: node.data?.node?.name === 'draft.txt' ? 200 : 404,
    };
  }
  const all = (status: number) => ({ attachment: status, download: status, apiAsset: status, apiAssets: status, graphqlNode: status });

  beforeAll(async () => {
    t = await startTestApp(provider);
    const alice: Models.User = await t.createUser('alice');
    const reader = await t.createUser('reader');
    const writer = await t.createUser('writer');
    await t.createUser('outsider');
    const proj = await createRepo(t, alice, 'proj', { autoInit: true });
    await addCollaborator(t, proj, reader, 'read');
    await addCollaborator(t, proj, writer, 'write');
    const rel = await t.request('POST', `${api}/releases`, { headers: basic('alice'), body: { tag_name: 'v2', draft: true } });
    releaseId = rel.json<{ id: number }>().id;
    const up = await t.app.server.inject({
      method: 'POST',
      url: `${api}/releases/${releaseId}/assets?name=draft.txt`,
      headers: { ...basic('alice'), 'content-type': 'application/octet-stream' },
      payload: Buffer.from('unreleased'),
    });
    expect(up.statusCode, up.body).toBe(201);
    const a = up.json<{ id: number; uuid: string }>();
    asset = { ...a, gid: encodeGlobalID('ReleaseAsset', a.id) };
    writerToken = await t.createToken('writer', ['write:repository']);
    readOnlyToken = await t.createToken('writer', ['read:repository']);
  });
  afterAll(async () => {
    await t.close();
  });

  it('is 404 to anonymous users, outsiders and readers on every route', async () => {
    expect(await statuses({}), 'anonymous').toEqual(all(404));
    expect(await statuses(basic('outsider')), 'outsider').toEqual(all(404));
    expect(await statuses(basic('reader')), 'reader').toEqual(all(404));
  });

  it('is served to writers of releases (not to their token without write:repository, as Gitea)', async () => {
    expect(await statuses(basic('writer')), 'writer').toEqual(all(200));
    expect(await statuses(basic('alice')), 'owner').toEqual(all(200));
    expect(await statuses(tokenAuth(writerToken)), 'writer token').toEqual(all(200));
    expect(await statuses(tokenAuth(readOnlyToken)), 'read-only token of a writer').toEqual(all(404));
    const dl = await t.app.server.inject({ method: 'GET', url: `/attachments/${asset.uuid}`, headers: basic('writer') });
    expect(dl.body).toBe('unreleased');
  });

  it('is readable by everyone once its release is published', async () => {
    const pub = await t.request('PATCH', `${api}/releases/${releaseId}`, { headers: basic('alice'), body: { draft: false } });
    expect(pub.statusCode, pub.body).toBe(200);
    expect(await statuses({}), 'anonymous').toEqual(all(200));
    expect(await statuses(basic('reader')), 'reader').toEqual(all(200));
  });
});
