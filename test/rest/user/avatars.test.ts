import { existsSync } from 'node:fs';
import path from 'node:path';
import { Jimp } from 'jimp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { createServiceContext } from '../../../src/services/context.ts';
import * as orgService from '../../../src/services/org/org.ts';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { createRepoRow, expectGiteaError } from '../../helpers/giteaAssert.ts';

/** A real image of `width`×`height` pixels, left half red and right half blue, encoded as `mime`. */
async function image(width: number, height: number, mime: 'image/png' | 'image/jpeg' = 'image/png'): Promise<Buffer> {
  const img = new Jimp({ width, height, color: 0xff0000ff });
  img.scan(Math.floor(width / 2), 0, width - Math.floor(width / 2), height, (_x, _y, idx) => {
    img.bitmap.data.writeUInt32BE(0x0000ffff, idx);
  });
  return img.getBuffer(mime);
}

const b64 = (data: Buffer) => ({ image: data.toString('base64') });
const hashOf = (url: string) => url.split('/').pop() ?? '';

describe.each(PROVIDERS)('avatars (%s)', (provider) => {
  let t: TestApp;
  const users: Record<string, Models.User> = {};

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const n of ['alice', 'bob']) users[n] = await t.createUser(n);
    const alice = createServiceContext(t.app.deps, users.alice!);
    await orgService.createOrg(alice, { name: 'pub-org' });
    await orgService.createOrg(alice, { name: 'secret-org', visibility: 'PRIVATE' });
  });
  afterAll(() => t.close());

  const avatarUrl = async (url: string, login = 'alice') =>
    ((await t.request('GET', url, { headers: basic(login) })).json() as { avatar_url: string }).avatar_url;

  it('uploads a user avatar, serves it as a cropped PNG with caching, replaces and deletes it', async () => {
    const identicon = await avatarUrl('/api/v1/user');
    expect(identicon).toMatch(/^http:\/\/localhost:3000\/avatars\/[0-9a-f]{32}$/);

    const up = await t.request('POST', '/api/v1/user/avatar', { headers: basic('alice'), body: b64(await image(300, 200)) });
    expect(up.statusCode).toBe(204);
    const url = await avatarUrl('/api/v1/user');
    expect(url).toMatch(/^http:\/\/localhost:3000\/avatars\/[0-9a-f]{64}$/);
    expect(await avatarUrl('/api/v1/users/alice', 'bob')).toBe(url);
    const gql = await t.graphql('{ user(login: "alice") { avatarUrl } }', {}, basic('bob'));
    expect(gql.json().data.user.avatarUrl).toBe(url);

    const got = await t.request('GET', `/avatars/${hashOf(url)}?size=40`);
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.headers['cache-control']).toContain('max-age=31536000');
    const png = await Jimp.fromBuffer(got.rawPayload);
    // Cropped to the centred 200×200 square (stored as uploaded: smaller than the rendered 512), half red, half blue.
    expect([png.width, png.height]).toEqual([200, 200]);
    expect(png.getPixelColor(10, 100)).toBe(0xff0000ff);
    expect(png.getPixelColor(190, 100)).toBe(0x0000ffff);
    const again = await t.request('GET', `/avatars/${hashOf(url)}`, { headers: { 'if-none-match': String(got.headers.etag) } });
    expect(again.statusCode).toBe(304);

    // A large JPEG is scaled down to Gitea's rendered size; the replaced file is removed.
    const jpeg = await t.request('POST', '/api/v1/user/avatar', {
      headers: basic('alice'),
      body: b64(await image(640, 560, 'image/jpeg')),
    });
    expect(jpeg.statusCode).toBe(204);
    const url2 = await avatarUrl('/api/v1/user');
    expect(url2).not.toBe(url);
    expect(existsSync(path.join(t.config.avatars.dir, hashOf(url)))).toBe(false);
    const big = await Jimp.fromBuffer((await t.request('GET', `/avatars/${hashOf(url2)}`)).rawPayload);
    expect([big.width, big.height]).toEqual([512, 512]);

    expect((await t.request('DELETE', '/api/v1/user/avatar', { headers: basic('alice') })).statusCode).toBe(204);
    expect(await avatarUrl('/api/v1/user')).toBe(identicon);
    expect(existsSync(path.join(t.config.avatars.dir, hashOf(url2)))).toBe(false);
    const gone = await t.request('GET', `/avatars/${hashOf(url2)}`);
    expect(gone.headers['content-type']).toContain('image/svg+xml');
  });

  it('refuses bad base64, non-images, unsupported types, oversize and overlarge images, and anonymous callers', async () => {
    const post = (body: unknown) => t.request('POST', '/api/v1/user/avatar', { headers: basic('bob'), body });
    expectGiteaError(await post({ image: 'not base64!' }), 400, 'illegal base64 data at input byte 3');
    expectGiteaError(await post(b64(Buffer.from('just some text, not an image'))), 422, 'image.DecodeConfig: image: unknown format');
    expectGiteaError(await post({}), 422, 'image.DecodeConfig: image: unknown format');
    const webp = Buffer.concat([Buffer.from('RIFF\0\0\0\0WEBPVP8 '), Buffer.alloc(20)]);
    expectGiteaError(await post(b64(webp)), 422, 'unsupported avatar image type');
    const huge = Buffer.concat([await image(4, 4), Buffer.alloc(1024 * 1024)]);
    expectGiteaError(await post(b64(huge)), 422, /^The uploaded file size \(1025 KiB\) exceeds the maximum size \(1024 KiB\)\.$/);
    expectGiteaError(await post(b64(await image(4100, 1))), 422, 'image width is too large: 4100 > 4096');
    // A truncated PNG: its header passes, decoding fails.
    expectGiteaError(await post(b64((await image(64, 64)).subarray(0, 60))), 422, /^image\.Decode: /);
    expectGiteaError(await t.request('POST', '/api/v1/user/avatar', { body: b64(await image(8, 8)) }), 401);
    expect(await avatarUrl('/api/v1/user', 'bob')).toMatch(/\/avatars\/[0-9a-f]{32}$/);
  });

  it('lets organization owners set and delete the avatar; others get 403, or 404 for a hidden organization', async () => {
    const png = b64(await image(64, 64));
    expectGiteaError(await t.request('POST', '/api/v1/orgs/pub-org/avatar', { headers: basic('bob'), body: png }), 403);
    expectGiteaError(await t.request('POST', '/api/v1/orgs/secret-org/avatar', { headers: basic('bob'), body: png }), 404);
    expectGiteaError(await t.request('DELETE', '/api/v1/orgs/secret-org/avatar', { headers: basic('bob') }), 404);
    expect((await t.request('POST', '/api/v1/orgs/pub-org/avatar', { headers: basic('alice'), body: png })).statusCode).toBe(204);
    const url = await avatarUrl('/api/v1/orgs/pub-org', 'bob');
    expect(url).toMatch(/\/avatars\/[0-9a-f]{64}$/);
    const gql = await t.graphql('{ organization(login: "pub-org") { avatarUrl } }', {}, basic('bob'));
    expect(gql.json().data.organization.avatarUrl).toBe(url);
    const served = await t.request('GET', `/avatars/${hashOf(url)}`);
    expect(served.headers['content-type']).toBe('image/png');
    expect((await Jimp.fromBuffer(served.rawPayload)).width).toBe(64);
    expect((await t.request('DELETE', '/api/v1/orgs/pub-org/avatar', { headers: basic('alice') })).statusCode).toBe(204);
    expect(await avatarUrl('/api/v1/orgs/pub-org', 'bob')).toMatch(/\/avatars\/[0-9a-f]{32}$/);
  });

  it('lets repository admins set and delete a repository avatar, refused on archived repositories', async () => {
    const repo = await createRepoRow(t, users.alice!, 'pics');
    const png = b64(await image(32, 48, 'image/jpeg'));
    expect(await avatarUrl('/api/v1/repos/alice/pics')).toBe('');
    expectGiteaError(await t.request('POST', '/api/v1/repos/alice/pics/avatar', { headers: basic('bob'), body: png }), 403);
    expectGiteaError(await t.request('POST', '/api/v1/repos/alice/nope/avatar', { headers: basic('alice'), body: png }), 404);
    expect((await t.request('POST', '/api/v1/repos/alice/pics/avatar', { headers: basic('alice'), body: png })).statusCode).toBe(204);
    const url = await avatarUrl('/api/v1/repos/alice/pics', 'bob');
    expect(url).toMatch(/^http:\/\/localhost:3000\/repo-avatars\/[0-9a-f]{64}$/);
    const served = await t.request('GET', `/repo-avatars/${hashOf(url)}`);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    const img = await Jimp.fromBuffer(served.rawPayload);
    expect([img.width, img.height]).toEqual([32, 32]);
    // Repository and account avatars live apart: the repository hash names no account avatar.
    expect((await t.request('GET', `/avatars/${hashOf(url)}`)).headers['content-type']).toContain('image/svg+xml');

    await t.db.repository.update({ where: { id: repo.id }, data: { isArchived: true } });
    expectGiteaError(await t.request('DELETE', '/api/v1/repos/alice/pics/avatar', { headers: basic('alice') }), 423);
    await t.db.repository.update({ where: { id: repo.id }, data: { isArchived: false } });
    expect((await t.request('DELETE', '/api/v1/repos/alice/pics/avatar', { headers: basic('alice') })).statusCode).toBe(204);
    expect(await avatarUrl('/api/v1/repos/alice/pics')).toBe('');
    expect((await t.request('GET', `/repo-avatars/${hashOf(url)}`)).statusCode).toBe(404);
    expect((await t.request('GET', '/repo-avatars/../../forgegraph.db')).statusCode).toBe(404);
  });
});
