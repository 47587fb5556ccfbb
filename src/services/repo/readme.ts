import type { Models } from '../../db/client.ts';
import { NotFoundError } from '../../errors.ts';
import { readObject } from '../../git/readObject.ts';
import { readTreePath, type TreeEntry } from '../../git/readTreePath.ts';
import { resolveRef, type ResolvedRef } from '../../git/resolveRef.ts';
import type { ServiceContext } from '../context.ts';
import { MAX_BLOB_SIZE, requireCodeRead } from './gitRead.ts';

/** A repository's README at a ref. */
export interface Readme {
  repo: Models.Repository;
  ref: ResolvedRef;
  entry: TreeEntry;
  content: Buffer;
}

const README = /^readme(\.[^.]+)?$/i;
const MARKDOWN = new Set(['.md', '.markdown', '.mdown', '.mkdn', '.mkd']);

/** How a README candidate ranks (lower first): Markdown, then no extension, then plain text, then any other markup. */
function rank(name: string): number {
  const ext = README.exec(name)?.[1]?.toLowerCase() ?? '';
  if (MARKDOWN.has(ext)) return 0;
  if (ext === '') return 1;
  if (ext === '.txt') return 2;
  return 3;
}

/** The README among a directory's entries (regular files only), or null. */
export function pickReadme(entries: readonly TreeEntry[]): TreeEntry | null {
  const files = entries.filter((e) => e.type === 'blob' && e.mode !== '120000' && README.test(e.name));
  files.sort((a, b) => rank(a.name) - rank(b.name) || a.name.localeCompare(b.name));
  return files[0] ?? null;
}

/**
 * The README file at the root of `ref` (the default branch when empty), GitHub's `GET /repos/{o}/{r}/readme`:
 * a file named README with any extension, Markdown preferred. Code read access, as the contents API.
 * @throws NotFoundError
 */
export async function getReadme(cx: ServiceContext, owner: string, name: string, ref?: string): Promise<Readme> {
  const access = await requireCodeRead(cx, owner, name);
  const refName = ref || access.repo.defaultBranch;
  const resolved = access.repo.isEmpty ? null : await resolveRef(access.gitDir, refName);
  if (!resolved) throw new NotFoundError(`no commit found for the ref [ref: ${refName}]`, { ref: refName });
  const root = await readTreePath(access.gitDir, resolved.commit, '');
  const entry = pickReadme(root?.children ?? []);
  if (!entry || entry.size > MAX_BLOB_SIZE) throw new NotFoundError('README does not exist', { ref: refName });
  const { content } = await readObject(access.gitDir, entry.sha);
  return { repo: access.repo, ref: resolved, entry, content };
}
