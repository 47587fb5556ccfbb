// The generic registry over real HTTP (curl) and inject: upload, download, delete, Gitea's rules and answers,
// blob sharing and cleanup, and access per role and token scope.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import { blobPath } from '../../src/services/package/blobStore.ts';
import { cleanupPackages } from '../../src/services/cron/cleanup.ts';
import { basic, startTestApp, tokenAuth, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { addMember, createOrgAs } from '../helpers/org.ts';

const curl = async (args: string[]): Promise<string> => (await promisify(execFile)('curl', args)).stdout;

const put = (t: TestApp, url: string, body: Buffer | string, headers: Record<string, string> = {}) =>
  t.app.server.inject({ method: 'PUT', url, headers: { 'content-type': 'application/octet-stream', ...headers }, payload: body });

describe.each(PROVIDERS)('generic registry (%s)', (provider) => {
  let t: TestApp;
  let owner: Models.User;
  let other: Models.User;
  let port = 0;
  let tmp = '';
  const base = () => `/api/packages/${owner.name}/generic`;

  beforeAll(async () => {
    t = await startTestApp(provider);
    owner = await t.createUser('gen-owner');
    other = await t.createUser('gen-other');
    await t.app.server.listen({ port: 0, host: '127.0.0.1' });
    const addr = t.app.server.server.address();
    port = typeof addr === 'object' && addr ? addr.port : 0;
    tmp = mkdtempSync(path.join(tmpdir(), 'fg-generic-'));
  });
  afterAll(async () => {
    await t.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('uploads with curl, downloads the same bytes, refuses a duplicate file with 409', async () => {
    const data = randomBytes(300_000);
    const file = path.join(tmp, 'in.bin');
    writeFileSync(file, data);
    const url = `http://127.0.0.1:${port}${base()}/te-st_pac.kage/1.0.3-te%20st/file.bin`;
    const code = await curl([
      '-s',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code}',
      '--user',
      `${owner.name}:password123!`,
      '--upload-file',
      file,
      url,
    ]);
    expect(code).toBe('201');
    const again = await curl(['-s', '-w', '\n%{http_code}', '--user', `${owner.name}:password123!`, '--upload-file', file, url]);
    expect(again).toBe('package file already exists\n\n409');
    const out = path.join(tmp, 'out.bin');
    const get = await curl(['-s', '-o', out, '-w', '%{http_code}', url]);
    expect(get).toBe('200');
    expect(readFileSync(out).equals(data)).toBe(true);
    const sha = createHash('sha256').update(data).digest('hex');
    expect(existsSync(blobPath(t.config.packages.dir, sha))).toBe(true);
    const version = await t.db.packageVersion.findFirstOrThrow({ where: { version: '1.0.3-te st' } });
    expect(version.downloadCount).toBe(1);
    const head = await t.app.server.inject({ method: 'HEAD', url: `${base()}/te-st_pac.kage/1.0.3-te%20st/file.bin` });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(data.length));
    expect(head.body).toBe('');
  });

  it('concurrent uploads converge: the same file once (201, then 409), shared blob, package and version never 500', async () => {
    const auth = basic(owner.name);
    const upload = async (pkg: string, version: string, file: string, data: Buffer) => {
      const res = await fetch(`http://127.0.0.1:${port}${base()}/${pkg}/${version}/${file}`, {
        method: 'PUT',
        headers: auth,
        body: new Uint8Array(data),
      });
      return `${res.status} ${await res.text()}`;
    };
    const N = 8;
    for (let round = 0; round < 2; round++) {
      // Eight identical PUTs of one file (Gitea: the first 201, the others 409 "package file already exists").
      const same = randomBytes(2048);
      const answers = await Promise.all(Array.from({ length: N }, () => upload(`race-${round}`, '1.0', 'same.bin', same)));
      expect(answers.filter((a) => a === '201 ')).toHaveLength(1);
      expect(answers.filter((a) => a !== '201 ')).toEqual(Array(N - 1).fill('409 package file already exists\n'));
      // One content under eight names, eight versions, eight packages at once: one blob, every upload 201.
      const shared = randomBytes(2048);
      const spread = await Promise.all([
        ...Array.from({ length: N }, (_, i) => upload(`race-${round}`, '2.0', `file-${i}.bin`, shared)),
        ...Array.from({ length: N }, (_, i) => upload(`race-${round}`, `3.${i}`, 'file.bin', shared)),
        ...Array.from({ length: N }, (_, i) => upload(`race-${round}-${i}`, '1.0', 'file.bin', shared)),
      ]);
      expect(spread).toEqual(Array(3 * N).fill('201 '));
      const sha256 = createHash('sha256').update(shared).digest('hex');
      const blob = await t.db.packageBlob.findUniqueOrThrow({
        where: { hashSha256: sha256 },
        include: { _count: { select: { files: true } } },
      });
      expect(blob._count.files).toBe(3 * N);
      const versions = await t.db.packageVersion.findMany({ where: { package: { ownerId: owner.id, lowerName: `race-${round}` } } });
      expect(versions.map((v) => v.version).sort()).toEqual(['1.0', '2.0', ...Array.from({ length: N }, (_, i) => `3.${i}`)].sort());
    }
  });

  it("checks Gitea's name, version and file name rules (400)", async () => {
    const auth = basic(owner.name);
    expect((await put(t, `${base()}/-/1.0/a.txt`, 'x', auth)).body).toBe('invalid package name\n');
    expect((await put(t, `${base()}/a..b/1.0/a.txt`, 'x', auth)).statusCode).toBe(201);
    expect((await put(t, `${base()}/..` + '/1.0/a.txt', 'x', auth)).statusCode).toBe(404);
    expect((await put(t, `${base()}/pkg/%201.0/a.txt`, 'x', auth)).body).toBe('invalid package version\n');
    expect((await put(t, `${base()}/pkg/1.0/%20a.txt`, 'x', auth)).body).toBe('invalid filename\n');
    const ok = await put(t, `${base()}/pkg/1.0/a.txt`, 'x', auth);
    expect(ok.statusCode).toBe(201);
    expect(ok.body).toBe('');
    // A second file joins the version.
    expect((await put(t, `${base()}/pkg/1.0/b.txt`, 'y', auth)).statusCode).toBe(201);
    const files = await t.db.packageFile.count({ where: { version: { version: '1.0', package: { lowerName: 'pkg' } } } });
    expect(files).toBe(2);
  });

  it('shares identical blobs, deletes files and versions (404 after), and cleanup removes unreferenced blobs', async () => {
    const auth = basic(owner.name);
    const data = Buffer.from('same content');
    const sha = createHash('sha256').update(data).digest('hex');
    expect((await put(t, `${base()}/shared/1/one.txt`, data, auth)).statusCode).toBe(201);
    expect((await put(t, `${base()}/shared/2/two.txt`, data, auth)).statusCode).toBe(201);
    expect(await t.db.packageBlob.count({ where: { hashSha256: sha } })).toBe(1);
    const del = await t.app.server.inject({ method: 'DELETE', url: `${base()}/shared/1/one.txt`, headers: auth });
    expect(del.statusCode).toBe(204);
    // The last file takes its version with it.
    expect(await t.db.packageVersion.count({ where: { version: '1', package: { lowerName: 'shared' } } })).toBe(0);
    expect((await t.app.server.inject({ method: 'GET', url: `${base()}/shared/1/one.txt` })).statusCode).toBe(404);
    expect((await t.app.server.inject({ method: 'DELETE', url: `${base()}/shared/2`, headers: auth })).statusCode).toBe(204);
    expect((await t.app.server.inject({ method: 'DELETE', url: `${base()}/shared/2`, headers: auth })).statusCode).toBe(404);
    expect(await t.db.package.count({ where: { lowerName: 'shared' } })).toBe(0);
    // Unreferenced now; the cron task removes the row and the file once older than OLDER_THAN.
    const outcome = await cleanupPackages(t.system, { startedAt: new Date(Date.now() + 2 * 86_400_000), settings: {} } as never);
    expect(outcome.message).toMatch(/deleted [1-9]\d* unreferenced package blob/);
    expect(await t.db.packageBlob.count({ where: { hashSha256: sha } })).toBe(0);
    expect(existsSync(blobPath(t.config.packages.dir, sha))).toBe(false);
  });

  it('enforces access per owner visibility, role and token scope', async () => {
    const anonDelete = await t.app.server.inject({ method: 'DELETE', url: `${base()}/pkg/1.0/a.txt` });
    expect(anonDelete.statusCode).toBe(401);
    expect(anonDelete.headers['www-authenticate']).toBe('Basic realm="Gitea Package API"');
    // Another user can read a public owner's packages but not publish.
    expect((await t.app.server.inject({ method: 'GET', url: `${base()}/pkg/1.0/a.txt`, headers: basic(other.name) })).statusCode).toBe(200);
    const denied = await put(t, `${base()}/pkg/1.0/c.txt`, 'x', basic(other.name));
    expect(denied.statusCode).toBe(401);
    expect(denied.body).toBe('user should have specific permission or be a site admin\n');
    // Tokens: no package scope → 401; read:package → read only; write:package → publish.
    const noScope = await t.createToken(owner.name, ['read:repository']);
    expect((await put(t, `${base()}/pkg/1.0/d.txt`, 'x', tokenAuth(noScope))).statusCode).toBe(401);
    expect((await t.app.server.inject({ method: 'GET', url: `${base()}/pkg/1.0/a.txt`, headers: tokenAuth(noScope) })).statusCode).toBe(
      401,
    );
    const readTok = await t.createToken(owner.name, ['read:package']);
    expect((await t.app.server.inject({ method: 'GET', url: `${base()}/pkg/1.0/a.txt`, headers: tokenAuth(readTok) })).statusCode).toBe(
      200,
    );
    expect((await put(t, `${base()}/pkg/1.0/d.txt`, 'x', tokenAuth(readTok))).statusCode).toBe(401);
    const writeTok = await t.createToken(owner.name, ['write:package']);
    expect((await put(t, `${base()}/pkg/1.0/d.txt`, 'x', { authorization: `Bearer ${writeTok}` })).statusCode).toBe(201);
    // A wrong password is 401 on every route.
    expect(
      (await t.app.server.inject({ method: 'GET', url: `${base()}/pkg/1.0/a.txt`, headers: basic(owner.name, 'wrong') })).statusCode,
    ).toBe(401);
    // Unknown owner → 404.
    expect((await t.app.server.inject({ method: 'GET', url: `/api/packages/nobody/generic/pkg/1.0/a.txt` })).statusCode).toBe(404);
  });

  it('private and limited owners; organization members by team', async () => {
    const priv = await t.createUser('gen-private', { visibility: 'PRIVATE' });
    expect((await put(t, `/api/packages/${priv.name}/generic/p/1/f`, 'x', basic(priv.name))).statusCode).toBe(201);
    const anon = await t.app.server.inject({ method: 'GET', url: `/api/packages/${priv.name}/generic/p/1/f` });
    expect(anon.statusCode).toBe(401);
    expect(
      (await t.app.server.inject({ method: 'GET', url: `/api/packages/${priv.name}/generic/p/1/f`, headers: basic(other.name) }))
        .statusCode,
    ).toBe(401);
    const publicOnly = await t.createToken(priv.name, ['public-only', 'read:package']);
    const po = await t.app.server.inject({
      method: 'GET',
      url: `/api/packages/${priv.name}/generic/p/1/f`,
      headers: tokenAuth(publicOnly),
    });
    expect(po.statusCode).toBe(403);
    expect(po.body).toBe('token scope is limited to public packages\n');

    const orgOwnerUser = await t.createUser('gen-org-owner');
    const org = await createOrgAs(t, orgOwnerUser, 'gen-org', 'PRIVATE');
    const reader = await t.createUser('gen-org-reader');
    await addMember(t, org, reader);
    const url = `/api/packages/${org.name}/generic/o/1/f`;
    expect((await put(t, url, 'x', basic(orgOwnerUser.name))).statusCode).toBe(201);
    expect((await t.app.server.inject({ method: 'GET', url, headers: basic(reader.name) })).statusCode).toBe(200);
    expect((await put(t, `/api/packages/${org.name}/generic/o/1/g`, 'x', basic(reader.name))).statusCode).toBe(401);
    expect((await t.app.server.inject({ method: 'GET', url, headers: basic(other.name) })).statusCode).toBe(401);
    expect((await t.app.server.inject({ method: 'GET', url })).statusCode).toBe(401);
  });

  it('enforces the generic size limit and the owner quotas (403)', async () => {
    const limits = t.config.packages;
    const saved = { ...limits };
    try {
      limits.limitSizeGeneric = 10;
      const big = await put(t, `${base()}/limited/1/big.bin`, Buffer.alloc(11), basic(owner.name));
      expect(big.statusCode).toBe(403);
      expect(big.body).toBe('maximum allowed package type size exceeded\n');
      limits.limitSizeGeneric = -1;
      limits.limitTotalOwnerCount = 0;
      expect((await put(t, `${base()}/limited/2/x`, 'x', basic(owner.name))).body).toBe('maximum allowed package count exceeded\n');
      limits.limitTotalOwnerCount = -1;
      limits.limitTotalOwnerSize = 1;
      expect((await put(t, `${base()}/limited/3/x`, 'xy', basic(owner.name))).body).toBe(
        'maximum allowed package storage quota exceeded\n',
      );
    } finally {
      Object.assign(limits, saved);
    }
    expect(await t.db.package.count({ where: { lowerName: 'limited' } })).toBe(0);
  });
});
