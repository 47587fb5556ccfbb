import { runGit } from './run.ts';

/**
 * The values (not peeled) of several full ref names in one `git for-each-ref`; refs that do not exist are
 * absent from the map.
 */
export async function readRefs(gitDir: string, refs: readonly string[]): Promise<Map<string, string>> {
  const wanted = new Set(refs);
  const values = new Map<string, string>();
  if (!wanted.size) return values;
  const out = (await runGit(gitDir, ['for-each-ref', '--format=%(objectname) %(refname)', '--end-of-options', ...wanted])).toString('utf8');
  for (const line of out.split('\n')) {
    const space = line.indexOf(' ');
    const name = line.slice(space + 1);
    if (space > 0 && wanted.has(name)) values.set(name, line.slice(0, space));
  }
  return values;
}

/** The value of one ref (not peeled), or null when it does not exist. */
export async function readRef(gitDir: string, ref: string): Promise<string | null> {
  return (await readRefs(gitDir, [ref])).get(ref) ?? null;
}
