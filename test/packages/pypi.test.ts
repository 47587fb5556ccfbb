// The PyPI registry: a twine-style multipart upload (as curl sends it), the simple index, and `pip install` from it
// with the real pip (private cache, no other index).
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';

const run = promisify(execFile);

/** Builds a pure-Python wheel (a zip with its dist-info) with Python's zipfile; returns its path. */
async function buildWheel(dir: string, name: string, version: string): Promise<string> {
  const file = path.join(dir, `${name}-${version}-py3-none-any.whl`);
  const script = `
import sys, zipfile, hashlib, base64
path, name, version = sys.argv[1:4]
files = {
  f"{name}/__init__.py": f"VERSION = '{version}'\\n",
  f"{name}-{version}.dist-info/METADATA": f"Metadata-Version: 2.1\\nName: {name}\\nVersion: {version}\\nSummary: test package\\n",
  f"{name}-{version}.dist-info/WHEEL": "Wheel-Version: 1.0\\nGenerator: test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n",
}
record = []
with zipfile.ZipFile(path, "w") as z:
  for n, c in files.items():
    data = c.encode()
    z.writestr(n, data)
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    record.append(f"{n},sha256={digest},{len(data)}")
  rec = f"{name}-{version}.dist-info/RECORD"
  record.append(f"{rec},,")
  z.writestr(rec, "\\n".join(record) + "\\n")
`;
  await run('python3', ['-c', script, file, name, version]);
  return file;
}

describe.each(PROVIDERS)('PyPI registry with curl and pip (%s)', (provider) => {
  let t: TestApp;
  let owner: Models.User;
  let dir = '';
  let port = 0;

  beforeAll(async () => {
    t = await startTestApp(provider);
    owner = await t.createUser('pypi-owner');
    await t.app.server.listen({ port: 0, host: '127.0.0.1' });
    const addr = t.app.server.server.address();
    port = typeof addr === 'object' && addr ? addr.port : 0;
    t.config.rootUrl = `http://127.0.0.1:${port}/`;
    dir = mkdtempSync(path.join(tmpdir(), 'fg-pypi-'));
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const upload = async (file: string, name: string, version: string, user = owner.name, digest?: string) => {
    const { stdout } = await run('curl', [
      '-s',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code}',
      '--user',
      `${user}:password123!`,
      '-F',
      ':action=file_upload',
      '-F',
      `name=${name}`,
      '-F',
      `version=${version}`,
      '-F',
      `sha256_digest=${digest ?? ''}`,
      '-F',
      'requires_python=>=3.7',
      '-F',
      `content=@${file}`,
      `http://127.0.0.1:${port}/api/packages/${owner.name}/pypi`,
    ]);
    return stdout;
  };

  it('uploads wheels, serves the simple index, and pip installs the newest version', async () => {
    const v1 = await buildWheel(dir, 'fg_hello', '1.0.0');
    const v2 = await buildWheel(dir, 'fg_hello', '1.1.0');
    const { stdout: sum } = await run('sha256sum', [v1]);
    expect(await upload(v1, 'fg-hello', '1.0.0', owner.name, sum.split(' ')[0])).toBe('201');
    expect(await upload(v1, 'fg-hello', '1.0.0')).toBe('409');
    expect(await upload(v2, 'fg-hello', '1.1.0', owner.name, 'deadbeef')).toBe('400');
    expect(await upload(v2, 'fg-hello', 'not a version')).toBe('400');
    const other = await t.createUser('pypi-other');
    expect(await upload(v2, 'fg-hello', '1.1.0', other.name)).toBe('401');
    expect(await upload(v2, 'fg-hello', '1.1.0')).toBe('201');

    const index = await t.app.server.inject({ method: 'GET', url: `/api/packages/${owner.name}/pypi/simple/FG_Hello` });
    expect(index.statusCode).toBe(200);
    expect(index.body).toContain('fg_hello-1.0.0-py3-none-any.whl</a>');
    expect(index.body).toContain('data-requires-python="&#62;=3.7"');
    const file = await t.app.server.inject({
      method: 'GET',
      url: `/api/packages/${owner.name}/pypi/files/fg-hello/1.1.0/fg_hello-1.1.0-py3-none-any.whl`,
    });
    expect(file.statusCode).toBe(200);
    expect(createHash('sha256').update(file.rawPayload).digest('hex')).toMatch(/^[0-9a-f]{64}$/);
    expect((await t.app.server.inject({ method: 'GET', url: `/api/packages/${owner.name}/pypi/simple/nope` })).statusCode).toBe(404);

    const target = path.join(dir, 'site');
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, PIP_CONFIG_FILE: '/dev/null', PIP_DISABLE_PIP_VERSION_CHECK: '1' };
    const pip = await run(
      'python3',
      [
        '-m',
        'pip',
        'install',
        '--no-cache-dir',
        '--index-url',
        `http://127.0.0.1:${port}/api/packages/${owner.name}/pypi/simple`,
        '--trusted-host',
        '127.0.0.1',
        '--target',
        target,
        'fg-hello',
      ],
      { env, timeout: 120_000 },
    );
    expect(pip.stdout).toContain('Successfully installed fg-hello-1.1.0');
    const { stdout } = await run('python3', ['-c', 'import fg_hello; print(fg_hello.VERSION)'], { env: { ...env, PYTHONPATH: target } });
    expect(stdout.trim()).toBe('1.1.0');
    const listed = await t.request('GET', `/api/v1/packages/${owner.name}?type=pypi`, { headers: basic(owner.name) });
    expect((listed.json() as { name: string; version: string }[]).map((p) => `${p.name}@${p.version}`)).toEqual([
      'fg-hello@1.1.0',
      'fg-hello@1.0.0',
    ]);
  }, 180_000);
});
