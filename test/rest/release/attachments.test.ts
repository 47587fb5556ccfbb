import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { sweepOrphanAttachmentFiles } from '../../../src/services/attachment/orphans.ts';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { addCollaborator, createRepo } from '../../helpers/fixtures.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';

interface ApiAttachment {
  id: number;
  name: string;
  size: number;
  download_count: number;
  created_at: string;
  uuid: string;
  browser_download_url: string;
}

const BOUNDARY = 'fgboundary7d93';

/** A multipart/form-data body with one file part. */
function multipart(field: string, filename: string, content: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

describe.each(PROVIDERS)('REST attachments: release assets, issue and comment attachments, downloads (%s)', (provider) => {
  let t: TestApp;
  let alice: Models.User;
  let releaseId: number;
  let secretReleaseId: number;
  const api = '/api/v1/repos/alice/proj';

  function upload(url: string, body: Buffer, opts: { user?: string; raw?: boolean } = {}) {
    const headers: Record<string, string> = {
      ...(opts.user === undefined ? basic('alice') : opts.user ? basic(opts.user) : {}),
      'content-type': opts.raw ? 'application/octet-stream' : `multipart/form-data; boundary=${BOUNDARY}`,
    };
    return t.app.server.inject({ method: 'POST', url, headers, payload: body });
  }

  function fileOf(uuid: string): string {
    return path.join(t.config.attachments.dir, uuid[0]!, uuid[1]!, uuid);
  }

  beforeAll(async () => {
    t = await startTestApp(provider);
    alice = await t.createUser('alice');
    const reader = await t.createUser('reader');
    await t.createUser('outsider');
    const proj = await createRepo(t, alice, 'proj', { autoInit: true });
    await createRepo(t, alice, 'secret', { autoInit: true, private: true });
    await addCollaborator(t, proj, reader, 'read');
    const rel = await t.request('POST', `${api}/releases`, { headers: basic('alice'), body: { tag_name: 'v1' } });
    releaseId = rel.json<{ id: number }>().id;
    const secret = await t.request('POST', '/api/v1/repos/alice/secret/releases', { headers: basic('alice'), body: { tag_name: 'v1' } });
    secretReleaseId = secret.json<{ id: number }>().id;
  });
  afterAll(async () => {
    await t.close();
  });

  it('uploads a multipart asset (field attachment, ?name= overrides) and downloads it byte-identical, counting downloads', async () => {
    const bytes = randomBytes(300_000);
    const res = await upload(`${api}/releases/${releaseId}/assets?name=build.tar.gz`, multipart('attachment', 'ignored.bin', bytes));
    expect(res.statusCode).toBe(201);
    const a = res.json<ApiAttachment>();
    expect(Object.keys(a)).toEqual(['id', 'name', 'size', 'download_count', 'created_at', 'uuid', 'browser_download_url']);
    expect(a).toMatchObject({
      name: 'build.tar.gz',
      size: 300_000,
      download_count: 0,
      browser_download_url: `http://localhost:3000/attachments/${a.uuid}`,
    });
    expect(existsSync(fileOf(a.uuid))).toBe(true);

    const dl = await t.app.server.inject({ method: 'GET', url: `/attachments/${a.uuid}` });
    expect(dl.statusCode).toBe(200);
    expect(dl.rawPayload.equals(bytes)).toBe(true);
    expect(dl.headers['content-type']).toBe('application/gzip');
    expect(dl.headers['content-length']).toBe('300000');
    expect(dl.headers['content-disposition']).toBe(`attachment; filename="build.tar.gz"; filename*=UTF-8''build.tar.gz`);
    const byTag = await t.app.server.inject({ method: 'GET', url: '/alice/proj/releases/download/v1/build.tar.gz' });
    expect(byTag.statusCode).toBe(200);
    expect(byTag.rawPayload.equals(bytes)).toBe(true);
    expect((await t.app.server.inject({ method: 'GET', url: '/alice/proj/releases/download/v1/nope.txt' })).statusCode).toBe(404);

    const got = await t.request('GET', `${api}/releases/${releaseId}/assets/${a.id}`);
    expect(got.json<ApiAttachment>().download_count).toBe(2);
    const rel = await t.request('GET', `${api}/releases/${releaseId}`);
    expect(rel.json<{ assets: ApiAttachment[] }>().assets.map((x) => x.uuid)).toEqual([a.uuid]);
  });

  it('reports the attachment settings (GET /settings/attachment)', async () => {
    const res = await t.request('GET', '/api/v1/settings/attachment');
    expect(res.json()).toEqual({
      enabled: true,
      allowed_types: expect.stringContaining('.txt'),
      max_size: 2048,
      max_files: 5,
    });
  });

  it('uploads a raw body with ?name=; without a name it is 400', async () => {
    const bytes = Buffer.from('plain text asset\n');
    const res = await upload(`${api}/releases/${releaseId}/assets?name=notes.txt`, bytes, { raw: true });
    expect(res.statusCode).toBe(201);
    const a = res.json<ApiAttachment>();
    expect(a.size).toBe(bytes.length);
    const dl = await t.app.server.inject({ method: 'GET', url: `/attachments/${a.uuid}` });
    expect(dl.body).toBe('plain text asset\n');
    expect(dl.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(dl.headers['content-disposition']).toMatch(/^inline; filename="notes.txt"/);
    expectGiteaError(
      await upload(`${api}/releases/${releaseId}/assets`, bytes, { raw: true }),
      400,
      'Could not determine name of attachment.',
    );
    const list = await t.request('GET', `${api}/releases/${releaseId}/assets`);
    expect(list.json<ApiAttachment[]>().map((x) => x.name)).toEqual(['build.tar.gz', 'notes.txt']);
  });

  it('refuses uploads past ATTACHMENT_MAX_SIZE with 413 and keeps no file', async () => {
    const settings = t.app.deps.config.attachments;
    const before = settings.maxBytes;
    settings.maxBytes = 1024;
    try {
      const res = await upload(`${api}/releases/${releaseId}/assets?name=big.bin`, randomBytes(4096), { raw: true });
      expectGiteaError(res, 413, /ATTACHMENT_MAX_SIZE/);
      const multi = await upload(`${api}/releases/${releaseId}/assets`, multipart('attachment', 'big.bin', randomBytes(4096)));
      expectGiteaError(multi, 413);
    } finally {
      settings.maxBytes = before;
    }
    expect(await t.db.attachment.count({ where: { name: 'big.bin' } })).toBe(0);
  });

  it('gates asset writes and private downloads', async () => {
    expect(
      (await upload(`${api}/releases/${releaseId}/assets?name=x.txt`, Buffer.from('x'), { raw: true, user: 'reader' })).statusCode,
    ).toBe(403);
    expect((await upload(`${api}/releases/${releaseId}/assets?name=x.txt`, Buffer.from('x'), { raw: true, user: '' })).statusCode).toBe(
      401,
    );
    const secret = await upload(`/api/v1/repos/alice/secret/releases/${secretReleaseId}/assets?name=s.txt`, Buffer.from('secret'), {
      raw: true,
    });
    expect(secret.statusCode).toBe(201);
    const uuid = secret.json<ApiAttachment>().uuid;
    expect((await t.app.server.inject({ method: 'GET', url: `/attachments/${uuid}` })).statusCode).toBe(404);
    expect((await t.app.server.inject({ method: 'GET', url: `/attachments/${uuid}`, headers: basic('outsider') })).statusCode).toBe(404);
    expect((await t.app.server.inject({ method: 'GET', url: '/alice/secret/releases/download/v1/s.txt' })).statusCode).toBe(404);
    const own = await t.app.server.inject({ method: 'GET', url: `/attachments/${uuid}`, headers: basic('alice') });
    expect(own.body).toBe('secret');
    expect(
      (await t.request('GET', `/api/v1/repos/alice/secret/releases/${secretReleaseId}/assets`, { headers: basic('outsider') })).statusCode,
    ).toBe(404);
    expect((await t.app.server.inject({ method: 'GET', url: '/attachments/not-a-uuid' })).statusCode).toBe(404);
  });

  it('renames (201) and deletes assets with their files; deleting a release removes its assets', async () => {
    const res = await upload(`${api}/releases/${releaseId}/assets?name=tmp.txt`, Buffer.from('tmp'), { raw: true });
    const a = res.json<ApiAttachment>();
    const renamed = await t.request('PATCH', `${api}/releases/${releaseId}/assets/${a.id}`, {
      headers: basic('alice'),
      body: { name: 'renamed.txt' },
    });
    expect(renamed.statusCode).toBe(201);
    expect(renamed.json<ApiAttachment>().name).toBe('renamed.txt');
    expect(
      (await t.request('PATCH', `${api}/releases/${releaseId}/assets/${a.id}`, { headers: basic('reader'), body: { name: 'x' } }))
        .statusCode,
    ).toBe(403);
    expect((await t.request('DELETE', `${api}/releases/${releaseId}/assets/${a.id}`, { headers: basic('alice') })).statusCode).toBe(204);
    expect(existsSync(fileOf(a.uuid))).toBe(false);
    expect((await t.request('GET', `${api}/releases/${releaseId}/assets/${a.id}`)).statusCode).toBe(404);

    const rel = await t.request('POST', `${api}/releases`, { headers: basic('alice'), body: { tag_name: 'v-gone' } });
    const relId = rel.json<{ id: number }>().id;
    const kept = (await upload(`${api}/releases/${relId}/assets?name=k.txt`, Buffer.from('k'), { raw: true })).json<ApiAttachment>();
    expect((await t.request('DELETE', `${api}/releases/${relId}`, { headers: basic('alice') })).statusCode).toBe(204);
    expect(existsSync(fileOf(kept.uuid))).toBe(false);
    expect(await t.db.attachment.count({ where: { uuid: kept.uuid } })).toBe(0);
  });

  it('attaches files to issues and comments with the permission of their issue; Issue and Comment JSON list them as assets', async () => {
    const issue = await t.request('POST', `${api}/issues`, { headers: basic('reader'), body: { title: 'with files' } });
    expect(issue.statusCode).toBe(201);
    const index = issue.json<{ number: number }>().number;
    // The poster may attach; an outsider may not (403); types outside ATTACHMENT_ALLOWED_TYPES are 400.
    const a = await upload(`${api}/issues/${index}/assets`, multipart('attachment', 'log.txt', Buffer.from('log')), { user: 'reader' });
    expect(a.statusCode).toBe(201);
    const att = a.json<ApiAttachment>();
    expect(
      (await upload(`${api}/issues/${index}/assets`, multipart('attachment', 'x.txt', Buffer.from('x')), { user: 'outsider' })).statusCode,
    ).toBe(403);
    expectGiteaError(
      await upload(`${api}/issues/${index}/assets`, multipart('attachment', 'evil.exe', Buffer.from('MZ'))),
      400,
      /not allowed/,
    );
    expect((await upload(`${api}/issues/${index}/assets`, multipart('other', 'x.txt', Buffer.from('x')))).statusCode).toBe(400);

    const got = await t.request('GET', `${api}/issues/${index}`);
    expect(got.json<{ assets: ApiAttachment[] }>().assets.map((x) => x.uuid)).toEqual([att.uuid]);
    const list = await t.request('GET', `${api}/issues?type=issues`);
    expect(list.json<Array<{ number: number; assets: ApiAttachment[] }>>().find((i) => i.number === index)?.assets).toHaveLength(1);
    expect((await t.request('GET', `${api}/issues/${index}/assets/${att.id}`)).json<ApiAttachment>().name).toBe('log.txt');
    const dl = await t.app.server.inject({ method: 'GET', url: `/attachments/${att.uuid}` });
    expect(dl.body).toBe('log');

    const comment = await t.request('POST', `${api}/issues/${index}/comments`, { headers: basic('alice'), body: { body: 'see file' } });
    const commentId = comment.json<{ id: number }>().id;
    const c = await upload(
      `${api}/issues/comments/${commentId}/assets?name=trace.log`,
      multipart('attachment', 'x.log', Buffer.from('trace')),
    );
    expect(c.statusCode).toBe(201);
    const catt = c.json<ApiAttachment>();
    expect(catt.name).toBe('trace.log');
    const cjson = await t.request('GET', `${api}/issues/comments/${commentId}`);
    expect(cjson.json<{ assets: ApiAttachment[] }>().assets.map((x) => x.uuid)).toEqual([catt.uuid]);
    // The issue's own assets do not include its comments' files.
    expect((await t.request('GET', `${api}/issues/${index}/assets`)).json<ApiAttachment[]>().map((x) => x.uuid)).toEqual([att.uuid]);
    expect((await t.request('GET', `${api}/issues/comments/${commentId}/assets`)).json<ApiAttachment[]>()).toHaveLength(1);
    const cRenamed = await t.request('PATCH', `${api}/issues/comments/${commentId}/assets/${catt.id}`, {
      headers: basic('alice'),
      body: { name: 'trace2.log' },
    });
    expect(cRenamed.statusCode).toBe(201);
    expect((await t.request('GET', `${api}/issues/comments/${commentId}/assets/${catt.id}`)).json<ApiAttachment>().name).toBe('trace2.log');
    // The reader neither posted the comment nor writes issues.
    expect(
      (await t.request('DELETE', `${api}/issues/comments/${commentId}/assets/${catt.id}`, { headers: basic('reader') })).statusCode,
    ).toBe(403);
    const extra = await upload(
      `${api}/issues/comments/${commentId}/assets?name=extra.txt`,
      multipart('attachment', 'e.txt', Buffer.from('e')),
    );
    const extraAtt = extra.json<ApiAttachment>();
    expect(
      (await t.request('DELETE', `${api}/issues/comments/${commentId}/assets/${extraAtt.id}`, { headers: basic('alice') })).statusCode,
    ).toBe(204);
    expect(existsSync(fileOf(extraAtt.uuid))).toBe(false);
    // An attachment of another issue or comment is not found here.
    expect((await t.request('GET', `${api}/issues/${index}/assets/${catt.id}`)).statusCode).toBe(404);
    expect(
      (await t.request('PATCH', `${api}/issues/${index}/assets/${att.id}`, { headers: basic('reader'), body: { name: 'log2.txt' } }))
        .statusCode,
    ).toBe(201);
    expect((await t.request('DELETE', `${api}/issues/${index}/assets/${att.id}`, { headers: basic('alice') })).statusCode).toBe(204);
    expect(existsSync(fileOf(att.uuid))).toBe(false);

    // Deleting the comment cascades its rows; the sweep removes the orphaned file.
    expect((await t.request('DELETE', `${api}/issues/comments/${commentId}`, { headers: basic('alice') })).statusCode).toBe(204);
    await t.app.deps.notifier.drain();
    expect(await t.db.attachment.count({ where: { uuid: catt.uuid } })).toBe(0);
    expect(await sweepOrphanAttachmentFiles(t.db, t.config.attachments, new Date(Date.now() + 120_000))).toBeGreaterThanOrEqual(1);
    expect(existsSync(fileOf(catt.uuid))).toBe(false);
  });
});
