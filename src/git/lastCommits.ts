import { readCommitInfos, type CommitInfo } from './commitInfo.ts';
import { spawnGit } from './run.ts';

/**
 * The last commit that touched each entry of a directory, with two git processes however many entries there
 * are: one history walk (`git log --name-only`, stopped as soon as every entry is found) and one read of the
 * commits found. Keys are entry names; entries never touched in the walk are absent.
 */
export async function lastCommitsFor(
  gitDir: string,
  commit: string,
  dir: string,
  names: readonly string[],
): Promise<Map<string, CommitInfo>> {
  const prefix = dir ? `${dir.replace(/\/+$/, '')}/` : '';
  const wanted = new Set(names);
  const found = new Map<string, string>();
  await new Promise<void>((resolve, reject) => {
    const args = ['log', '--format=%x1e%H', '--name-only', '--no-renames', '-z', commit, '--', ...(prefix ? [prefix] : [])];
    const child = spawnGit(gitDir, args);
    child.stdin.end();
    child.stderr.resume();
    let buffer = '';
    let current = '';
    const consume = (final: boolean) => {
      const parts = buffer.split(/\0|\n/);
      buffer = final ? '' : (parts.pop() ?? '');
      for (const raw of parts) {
        if (raw.startsWith('\x1e')) {
          current = raw.slice(1);
          continue;
        }
        if (!raw || !current || !raw.startsWith(prefix)) continue;
        const name = raw.slice(prefix.length).split('/')[0] ?? '';
        if (wanted.has(name) && !found.has(name)) found.set(name, current);
      }
      if (found.size === wanted.size) child.kill();
    };
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      buffer += d;
      consume(false);
    });
    child.on('error', reject);
    child.on('close', () => {
      consume(true);
      resolve();
    });
  });
  const shas = [...new Set(found.values())];
  const infos = new Map((await readCommitInfos(gitDir, shas)).map((c) => [c.sha, c]));
  const out = new Map<string, CommitInfo>();
  for (const [name, sha] of found) {
    const info = infos.get(sha);
    if (info) out.set(name, info);
  }
  return out;
}
