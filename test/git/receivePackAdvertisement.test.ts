// receive-pack's ref advertisement made in process (src/git/receivePackAdvertisement.ts) is git's own, byte for byte,
// and is refused (null) where git's could differ.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serviceAnnouncement } from '../../src/git/pktLine.ts';
import { receivePackAdvertisement } from '../../src/git/receivePackAdvertisement.ts';
import { spawnService } from '../../src/git/spawnService.ts';
import { RepoFixture } from './fixture.ts';

const hooks = mkdtempSync(path.join(tmpdir(), 'fg-advert-hooks-'));
const fixtures: RepoFixture[] = [];
afterAll(() => {
  for (const f of fixtures) f.cleanup();
  rmSync(hooks, { recursive: true, force: true });
});

/** What `git receive-pack --stateless-rpc --advertise-refs` prints for `gitDir`. */
function gitsOwn(gitDir: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawnService('receive-pack', gitDir, { mode: 'advertise', hooksDir: hooks });
    const out: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`receive-pack exited ${code}`))));
    child.stdin.end();
  });
}

async function fixture(format: 'sha1' | 'sha256' = 'sha1'): Promise<RepoFixture> {
  const f = await RepoFixture.create(format);
  fixtures.push(f);
  return f;
}

describe.each(['sha1', 'sha256'] as const)('receive-pack advertisement in process (%s)', (format) => {
  it('an empty repository: the capabilities line, as git prints it', async () => {
    const f = await fixture(format);
    const ours = await receivePackAdvertisement(f.bare, format, hooks);
    expect(ours?.toString('utf8')).toContain(' capabilities^{}\0');
    expect(ours).toEqual(await gitsOwn(f.bare));
  });

  it('branches, tags, pull refs, packed and loose, a loose ref newer than its packed value: the same bytes as git', async () => {
    const f = await fixture(format);
    const first = await f.commit({ 'a.txt': 'a\n' }, 'one');
    await f.checkout('feature/ünïcode', 'main');
    await f.commit({ 'b.txt': 'b\n' }, 'two');
    await f.checkout('main');
    const third = await f.commit({ 'c.txt': 'c\n' }, 'three');
    await f.git(['tag', '-a', '-m', 'annotated', 'v1', first], {
      gitDir: f.bare,
      env: { GIT_COMMITTER_NAME: 'Tagger', GIT_COMMITTER_EMAIL: 'tagger@example.com' },
    });
    await f.bareGit(['tag', 'light', third]);
    await f.bareGit(['update-ref', 'refs/pull/1/head', first]);
    await f.bareGit(['pack-refs', '--all']);
    await f.bareGit(['update-ref', 'refs/heads/main', first]);
    await f.bareGit(['update-ref', 'refs/heads/after-pack', third]);
    const ours = await receivePackAdvertisement(f.bare, format, hooks);
    const git = await gitsOwn(f.bare);
    expect(ours?.toString('utf8')).toContain('refs/pull/1/head');
    expect(ours?.toString('utf8')).toBe(git.toString('utf8'));
    // With the service line, as smart HTTP sends it.
    const withLine = Buffer.concat([serviceAnnouncement('receive-pack', undefined), ours!]);
    expect(withLine.toString('utf8')).toBe(`001f# service=git-receive-pack\n0000${git.toString('utf8')}`);
    expect(serviceAnnouncement('receive-pack', 'version=2')).toEqual(Buffer.alloc(0));
  });
});

describe('receive-pack advertisement: what git must make itself', () => {
  it('a symbolic ref, alternates, or too many loose refs give null', async () => {
    const f = await fixture();
    const sha = await f.commit({ 'a.txt': 'a\n' }, 'one');
    expect(await receivePackAdvertisement(f.bare, 'sha1', hooks)).not.toBeNull();

    await f.bareGit(['symbolic-ref', 'refs/heads/alias', 'refs/heads/main']);
    expect(await receivePackAdvertisement(f.bare, 'sha1', hooks)).toBeNull();
    await f.bareGit(['symbolic-ref', '--delete', 'refs/heads/alias']);

    writeFileSync(path.join(f.bare, 'objects', 'info', 'alternates'), `${path.join(f.bare, 'objects')}\n`);
    expect(await receivePackAdvertisement(f.bare, 'sha1', hooks)).toBeNull();
    rmSync(path.join(f.bare, 'objects', 'info', 'alternates'));

    const creates = Array.from({ length: 300 }, (_, i) => `create refs/heads/b${i} ${sha}\n`).join('');
    await f.git(['update-ref', '--stdin'], { gitDir: f.bare, input: creates });
    expect(await receivePackAdvertisement(f.bare, 'sha1', hooks)).toBeNull();
    await f.bareGit(['pack-refs', '--all']);
    const packed = await receivePackAdvertisement(f.bare, 'sha1', hooks);
    expect(packed).toEqual(await gitsOwn(f.bare));
  });
});
