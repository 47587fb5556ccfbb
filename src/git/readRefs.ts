import { readFileSync, statSync, type Dirent } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { runGit } from './run.ts';

const SHA = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/** A full ref name that is safe to read as a file under the git directory. */
const isPlainRefName = (ref: string) => /^refs\/[^\0\\]+$/.test(ref) && !ref.split('/').some((p) => p === '' || p === '.' || p === '..');

/**
 * A loose ref's value. Read synchronously: the file is one line, and reading it blocks for microseconds where the
 * asynchronous read took four trips through libuv's thread pool (open, fstat, read, close), a tenth of GET pull.
 */
function readLoose(gitDir: string, ref: string): string | null | 'other' {
  try {
    const value = readFileSync(path.join(gitDir, ref), 'utf8').trim();
    return SHA.test(value) ? value : 'other';
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR' ? null : 'other';
  }
}

/** packed-refs files parsed, by path, with the file's identity when read (git replaces the file whole, by rename). */
const packedFiles = new Map<string, { ino: number; size: number; mtimeMs: number; refs: Map<string, string> }>();
const MAX_PACKED_FILES = 256;

/**
 * The values of packed-refs (peeled `^` lines skipped). A file parsed before is reused while its inode, size and
 * time are unchanged: once a repository's upkeep packed its refs (packRefs.ts), every read of a packed ref asks here.
 */
async function readPacked(gitDir: string): Promise<ReadonlyMap<string, string>> {
  const file = path.join(gitDir, 'packed-refs');
  const stat = statSync(file, { throwIfNoEntry: false });
  if (!stat) return new Map();
  const known = packedFiles.get(file);
  if (known && known.ino === stat.ino && known.size === stat.size && known.mtimeMs === stat.mtimeMs) return known.refs;
  const packed = new Map<string, string>();
  const text = await readFile(file, 'utf8').catch(() => '');
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || line.startsWith('^')) continue;
    const space = line.indexOf(' ');
    if (space > 0) packed.set(line.slice(space + 1), line.slice(0, space));
  }
  if (packedFiles.size >= MAX_PACKED_FILES) packedFiles.clear();
  packedFiles.set(file, { ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs, refs: packed });
  return packed;
}

/**
 * The values (not peeled) of several full ref names; refs that do not exist are absent from the map. Read from
 * the files backend directly (loose ref, else packed-refs: git writes packed-refs before it deletes a loose ref,
 * so this order never misses one); symbolic refs, reftable repositories and unusual names ask `git for-each-ref`.
 */
export async function readRefs(gitDir: string, refs: readonly string[]): Promise<Map<string, string>> {
  const wanted = [...new Set(refs)];
  const values = new Map<string, string>();
  if (!wanted.length) return values;
  const direct = wanted.every(isPlainRefName) && !isReftable(gitDir);
  if (direct) {
    const loose = wanted.map((ref) => readLoose(gitDir, ref));
    if (!loose.includes('other')) {
      const packed = loose.includes(null) ? await readPacked(gitDir) : new Map<string, string>();
      wanted.forEach((ref, i) => {
        const value = loose[i] ?? packed.get(ref);
        if (value) values.set(ref, value);
      });
      return values;
    }
  }
  const out = (await runGit(gitDir, ['for-each-ref', '--format=%(objectname) %(refname)', '--end-of-options', ...wanted])).toString('utf8');
  for (const line of out.split('\n')) {
    const space = line.indexOf(' ');
    const name = line.slice(space + 1);
    if (space > 0 && wanted.includes(name)) values.set(name, line.slice(0, space));
  }
  return values;
}

/** The value of one ref (not peeled), or null when it does not exist. */
export async function readRef(gitDir: string, ref: string): Promise<string | null> {
  return (await readRefs(gitDir, [ref])).get(ref) ?? null;
}

/** Whether the repository keeps its refs in a reftable (no loose refs, no packed-refs). */
export const isReftable = (gitDir: string): boolean => statSync(path.join(gitDir, 'reftable'), { throwIfNoEntry: false }) !== undefined;

/**
 * The names of the loose refs under refs/ (lock files skipped), or null when there are more than `maxLoose` or one
 * is not a plain file with a plain name (git must be asked).
 */
export async function looseRefNames(gitDir: string, maxLoose: number): Promise<string[] | null> {
  const names: string[] = [];
  const walk = async (dir: string): Promise<boolean> => {
    let entries: Dirent[];
    try {
      entries = await readdir(path.join(gitDir, dir), { withFileTypes: true });
    } catch {
      return true;
    }
    for (const e of entries) {
      const name = `${dir}/${e.name}`;
      if (e.isDirectory()) {
        if (!(await walk(name))) return false;
      } else if (!e.name.endsWith('.lock')) {
        if (!e.isFile() || !isPlainRefName(name) || names.length >= maxLoose) return false;
        names.push(name);
      }
    }
    return true;
  };
  return (await walk('refs')) ? names : null;
}

/**
 * Every ref under refs/ with its value (not peeled), sorted by name as git sorts them (bytewise), read from the files
 * backend directly: the loose refs, then packed-refs (the order readRefs relies on). Null when git would have to
 * be asked: a reftable repository, a symbolic or unreadable loose ref, or more than `maxLoose` loose refs (each is a
 * file to read; git reads them faster).
 */
export async function readAllRefs(gitDir: string, maxLoose: number): Promise<Array<{ ref: string; sha: string }> | null> {
  if (isReftable(gitDir)) return null;
  const names = await looseRefNames(gitDir, maxLoose);
  if (!names) return null;
  const values = new Map<string, string>();
  for (const name of names) {
    const value = readLoose(gitDir, name);
    if (value === 'other') return null;
    if (value) values.set(name, value);
  }
  for (const [ref, sha] of await readPacked(gitDir)) if (!values.has(ref) && isPlainRefName(ref)) values.set(ref, sha);
  return [...values].map(([ref, sha]) => ({ ref, sha })).sort((a, b) => Buffer.compare(Buffer.from(a.ref), Buffer.from(b.ref)));
}
