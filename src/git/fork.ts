import { copyFile, link, mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { forgetGitCache } from './cache.ts';
import { initRepository } from './initRepository.ts';
import { runGit } from './run.ts';

/** What a fork's bare repository is made from. */
export interface ForkRepositoryInput {
  /** The parent's bare repository. */
  source: string;
  /** The fork's bare repository (must not exist). */
  gitdir: string;
  /** The parent's default branch: the fork's HEAD. */
  defaultBranch: string;
  objectFormat: 'sha1' | 'sha256';
  /** Shared hooks directory (`<dataDir>/hooks`). */
  hooksDir: string;
}

/** A pack is usable once its index is there; these files travel with it. */
const PACK_SUFFIXES = ['.pack', '.rev', '.bitmap', '.mtimes', '.idx'];
const LOOSE_DIR = /^[0-9a-f]{2}$/;
const LOOSE_FILE = /^[0-9a-f]{38}$|^[0-9a-f]{62}$/;
const PACK_RETRIES = 5;
/** Parallel link calls (libuv runs them on its thread pool). */
const LINK_CONCURRENCY = 16;

function isMissing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | null)?.code === 'ENOENT';
}

/** Hard-links `from` to `to` (objects are immutable, so sharing the inode is safe); copies across devices. */
async function linkOrCopy(from: string, to: string): Promise<void> {
  try {
    await link(from, to);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'EMLINK') throw err;
    await copyFile(from, to);
  }
}

async function list(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (err) {
    if (isMissing(err)) return [];
    throw err;
  }
}

/** Runs `fn` over `items`, at most `limit` at a time. */
async function eachLimit<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++] as T;
      await fn(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** Links the loose objects. One that vanished was packed by a concurrent gc: the pack pass finds it. */
async function linkLooseObjects(src: string, dst: string): Promise<void> {
  const dirs = (await list(src)).filter((d) => LOOSE_DIR.test(d));
  const files: string[] = [];
  await eachLimit(dirs, LINK_CONCURRENCY, async (dir) => {
    const names = (await list(path.join(src, dir))).filter((f) => LOOSE_FILE.test(f));
    if (!names.length) return;
    await mkdir(path.join(dst, dir), { recursive: true });
    for (const f of names) files.push(path.join(dir, f));
  });
  await eachLimit(files, LINK_CONCURRENCY, (f) =>
    linkOrCopy(path.join(src, f), path.join(dst, f)).catch((err: unknown) => {
      if (!isMissing(err)) throw err;
    }),
  );
}

/**
 * Links every complete pack (a `.pack` with its `.idx`; the index last, so the fork never sees a pack
 * without its data). A pack that vanished meanwhile was replaced by a concurrent repack, whose new pack
 * is already written (git deletes old packs only after that), so the directory is listed again.
 */
async function linkPacks(src: string, dst: string): Promise<void> {
  const done = new Set<string>();
  for (let attempt = 0; attempt < PACK_RETRIES; attempt++) {
    const files = new Set(await list(src));
    const bases = [...files].filter((f) => f.startsWith('pack-') && f.endsWith('.pack')).map((f) => f.slice(0, -'.pack'.length));
    let vanished = false;
    for (const base of bases) {
      if (done.has(base) || !files.has(`${base}.idx`)) continue;
      try {
        for (const suffix of PACK_SUFFIXES) {
          if (files.has(base + suffix)) await linkOrCopy(path.join(src, base + suffix), path.join(dst, base + suffix));
        }
        done.add(base);
      } catch (err) {
        if (!isMissing(err)) throw err;
        vanished = true;
        await Promise.all(PACK_SUFFIXES.map((s) => rm(path.join(dst, base + s), { force: true })));
      }
    }
    if (!vanished) return;
  }
  throw new Error(`the parent's packs kept changing while forking ${src}`);
}

/**
 * Creates a fork's bare repository from its parent's, on the same filesystem, without the pack protocol:
 * 1. reads the parent's branches and tags (refs/pull/* and other refs are not copied, as Gitea's
 *    `clone --bare`);
 * 2. creates the fork with initRepository (same config, shared hooks, object format, HEAD on the default
 *    branch as a new repository);
 * 3. hard-links the parent's object files into it (loose objects, then complete packs). Object files are
 *    immutable and git only ever unlinks them, so the fork stays whole when the parent is later deleted,
 *    repacked or pruned; nothing points back at the parent (no alternates, no remote);
 * 4. writes the refs in one `update-ref --stdin` transaction (which checks every tip exists) and packs them.
 * Refs are read before objects are linked, so every object they reach is already in the parent. A failure
 * after step 2 removes the fork's directory.
 * @throws AlreadyExistsError when the fork's directory exists; GitCommandError when git fails
 */
export async function forkRepository(input: ForkRepositoryInput): Promise<void> {
  const refs = (await runGit(input.source, ['for-each-ref', '--format=%(objectname) %(refname)', 'refs/heads/', 'refs/tags/']))
    .toString('utf8')
    .split('\n')
    .filter(Boolean);
  await initRepository({
    gitdir: input.gitdir,
    defaultBranch: input.defaultBranch,
    objectFormat: input.objectFormat,
    hooksDir: input.hooksDir,
  });
  try {
    const srcObjects = path.join(input.source, 'objects');
    const dstObjects = path.join(input.gitdir, 'objects');
    await linkLooseObjects(srcObjects, dstObjects);
    await linkPacks(path.join(srcObjects, 'pack'), path.join(dstObjects, 'pack'));
    if (refs.length) {
      const commands = refs.map((line) => {
        const space = line.indexOf(' ');
        return `create ${line.slice(space + 1)} ${line.slice(0, space)}\n`;
      });
      await runGit(input.gitdir, ['update-ref', '--stdin'], { input: commands.join('') });
      await runGit(input.gitdir, ['pack-refs', '--all']);
    }
  } catch (err) {
    forgetGitCache(input.gitdir);
    await rm(input.gitdir, { recursive: true, force: true });
    throw err;
  }
}
