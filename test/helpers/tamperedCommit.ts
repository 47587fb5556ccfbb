// A signed commit altered after signing: the same object with its message changed and the signature kept, as an
// attacker rewriting history would leave it. Its verification must fail (Gitea's probable_bad_signature).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { GitClient } from '../githttp/gitClient.ts';

/** Writes into `dir`'s object store a copy of commit `sha` whose message `from` became `to`; returns its id. */
export async function tamperedCommit(git: GitClient, dir: string, sha: string, from: string, to: string): Promise<string> {
  const raw = await git.ok(['cat-file', 'commit', sha], { cwd: dir });
  if (!raw.includes(from)) throw new Error(`commit ${sha} does not contain "${from}"`);
  writeFileSync(path.join(dir, 'tampered'), raw.replace(from, to));
  return (await git.ok(['hash-object', '-t', 'commit', '-w', 'tampered'], { cwd: dir })).trim();
}
