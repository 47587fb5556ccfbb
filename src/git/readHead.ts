import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { runGitResult } from './run.ts';

/** The branch HEAD points at (`refs/heads/<branch>`, which may not exist yet), or null when HEAD is detached or unreadable. */
export async function readHeadBranch(gitDir: string): Promise<string | null> {
  const text = await readFile(path.join(gitDir, 'HEAD'), 'utf8').catch(() => null);
  const m = text === null ? null : /^ref: refs\/heads\/(.+)\n?$/.exec(text);
  if (m?.[1] && m[1] !== '.invalid') return m[1];
  // A reftable repository keeps HEAD elsewhere: ask git.
  const r = await runGitResult(gitDir, ['symbolic-ref', '--quiet', 'HEAD']).catch(() => null);
  const ref = r?.code === 0 ? r.stdout.toString('utf8').trim() : '';
  return ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : null;
}
