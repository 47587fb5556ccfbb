import type { Models } from '../../db/client.ts';
import { verifyCommits, type CommitVerification } from '../gpg/verifyCommits.ts';
import { InvalidArgumentError, isDomainError, NotFoundError } from '../../errors.ts';
import type { CommitInfo } from '../../git/commitInfo.ts';
import { lastCommitFor } from '../../git/commitInfo.ts';
import { lastCommitsFor } from '../../git/lastCommits.ts';
import * as gitBranches from '../../git/listBranches.ts';
import { readObject } from '../../git/readObject.ts';
import { readTreePath, type TreeEntry } from '../../git/readTreePath.ts';
import { repoPath } from '../../git/repoPath.ts';
import { resolveRef, type ResolvedRef } from '../../git/resolveRef.ts';
import { requireRepo, requireUnitRead, type RepoAccess } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { branchFacts } from '../protection/branchGate.ts';
import { loadRules, type ProtectionRule } from '../protection/rule.ts';
import { skipTake, type ListOptions, type Page } from '../paging.ts';

/** Gitea's `[api] DEFAULT_MAX_BLOB_SIZE`: larger blobs are returned without content. */
export const MAX_BLOB_SIZE = 10 * 1024 * 1024;

/** A branch as the API shows it, with what the viewer may do on it. */
export interface BranchView {
  name: string;
  commit: CommitInfo;
  /** Logins of the users whose (activated) e-mails signed the commit, by lower-case e-mail. */
  usernames: ReadonlyMap<string, string>;
  userCanPush: boolean;
  userCanMerge: boolean;
  /** The rule protecting the branch (Gitea's first match), or null. */
  protection: ProtectionRule | null;
  /** The head commit's signature verification. */
  verification: CommitVerification | null;
}

/** Users by activated e-mail (Gitea GetUserByEmail), one query for all commits. */
async function usernamesByEmail(cx: ServiceContext, commits: readonly CommitInfo[]): Promise<Map<string, string>> {
  const emails = [...new Set(commits.flatMap((c) => [c.author.email, c.committer.email]).map((e) => e.toLowerCase()))].filter(Boolean);
  if (!emails.length) return new Map();
  const rows = await cx.db.emailAddress.findMany({
    where: { lowerEmail: { in: emails }, isActivated: true },
    select: { lowerEmail: true, user: { select: { name: true } } },
  });
  return new Map(rows.map((r) => [r.lowerEmail, r.user.name]));
}

/** The repository whose code the viewer reads, and where it lives. */
export interface CodeAccess extends RepoAccess {
  gitDir: string;
}

/** Read access to the code unit (404 when the repository or its code is not visible). @throws NotFoundError */
export async function requireCodeRead(cx: ServiceContext, owner: string, name: string): Promise<CodeAccess> {
  const access = await requireRepo(cx, owner, name);
  requireUnitRead(access, 'CODE');
  return { ...access, gitDir: repoPath(cx.config.repositoriesDir, access.repo.ownerName, access.repo.name) };
}

async function branchView(
  cx: ServiceContext,
  access: RepoAccess,
  rules: readonly ProtectionRule[],
  head: gitBranches.BranchHead,
  usernames: ReadonlyMap<string, string>,
  verified: ReadonlyMap<string, CommitVerification>,
): Promise<BranchView> {
  const facts = await branchFacts(cx, access, rules, head.name);
  return {
    name: head.name,
    commit: head.commit,
    usernames,
    userCanPush: facts.userCanPush && !access.repo.isArchived,
    userCanMerge: facts.userCanMerge,
    protection: facts.rule,
    verification: verified.get(head.commit.sha) ?? null,
  };
}

/** A page of the repository's branches (newest head commit first). @throws NotFoundError */
export async function listBranches(
  cx: ServiceContext,
  owner: string,
  name: string,
  opts: ListOptions,
): Promise<Page<BranchView> & { repo: Models.Repository }> {
  const access = await requireCodeRead(cx, owner, name);
  const heads = access.repo.isEmpty ? [] : await gitBranches.listBranches(access.gitDir);
  const { skip, take } = skipTake(opts);
  const page = heads.slice(skip, skip + take);
  const usernames = await usernamesByEmail(
    cx,
    page.map((h) => h.commit),
  );
  const rules = page.length ? await loadRules(cx.db, access.repo.id) : [];
  const verified = await verifyCommits(
    cx,
    access.gitDir,
    page.map((h) => h.commit.sha),
  );
  const items = await Promise.all(page.map((h) => branchView(cx, access, rules, h, usernames, verified)));
  return { repo: access.repo, total: heads.length, items };
}

/** One branch (the name may contain `/`). @throws NotFoundError */
export async function getBranch(
  cx: ServiceContext,
  owner: string,
  name: string,
  branch: string,
): Promise<{ repo: Models.Repository; branch: BranchView }> {
  const access = await requireCodeRead(cx, owner, name);
  const [head] = access.repo.isEmpty ? [] : await gitBranches.listBranches(access.gitDir, branch);
  if (!head) throw new NotFoundError(`branch does not exist [name: ${branch}]`, { branch });
  const rules = await loadRules(cx.db, access.repo.id);
  const verified = await verifyCommits(cx, access.gitDir, [head.commit.sha]);
  return { repo: access.repo, branch: await branchView(cx, access, rules, head, await usernamesByEmail(cx, [head.commit]), verified) };
}

/** One tree entry with its last commit, and for a single file its content. */
export interface ContentEntry {
  entry: TreeEntry;
  lastCommit: CommitInfo | null;
  /** Blob bytes (files read singly, at most MAX_BLOB_SIZE) or a symlink's target. */
  content: Buffer | null;
}

/** A file (with content) or a directory listing (without), at a ref. */
export interface Contents {
  repo: Models.Repository;
  ref: ResolvedRef;
  path: string;
  result: ContentEntry | ContentEntry[];
}

/** The commit `ref` names (the default branch when empty) in a repository with code. @throws NotFoundError */
export async function resolveCodeRef(access: CodeAccess, ref: string | undefined): Promise<ResolvedRef> {
  const refName = ref || access.repo.defaultBranch;
  const resolved = access.repo.isEmpty ? null : await resolveRef(access.gitDir, refName);
  if (!resolved) throw new NotFoundError(`no commit found for the ref [ref: ${refName}]`, { ref: refName });
  return resolved;
}

/**
 * Reads `path` at `ref` (branch, tag or commit; the default branch when empty), Gitea GetContentsOrList:
 * a file or symlink with its content, a directory as a list of entries without content; the last commit of
 * each entry unless `commitMetadata` is false.
 * @throws NotFoundError
 */
export async function getContents(
  cx: ServiceContext,
  owner: string,
  name: string,
  path: string,
  ref?: string,
  opts: { commitMetadata?: boolean } = {},
): Promise<Contents> {
  const access = await requireCodeRead(cx, owner, name);
  const resolved = await resolveCodeRef(access, ref);
  const metadata = opts.commitMetadata ?? true;
  const clean = path.replace(/^\/+|\/+$/g, '');
  const found = await readTreePath(access.gitDir, resolved.commit, clean);
  if (!found) throw new NotFoundError(`object does not exist [id: , rel_path: ${clean}]`, { path: clean });
  const withCommit = async (entry: TreeEntry, content: Buffer | null): Promise<ContentEntry> => ({
    entry,
    lastCommit: metadata ? await lastCommitFor(access.gitDir, resolved.commit, entry.path) : null,
    content,
  });
  const base = { repo: access.repo, ref: resolved, path: clean };
  if (found.children) {
    // One history walk for the whole listing, not one `git log` per entry.
    const last = metadata
      ? await lastCommitsFor(
          access.gitDir,
          resolved.commit,
          clean,
          found.children.map((e) => e.name),
        )
      : new Map<string, CommitInfo>();
    return { ...base, result: found.children.map((entry) => ({ entry, lastCommit: last.get(entry.name) ?? null, content: null })) };
  }
  const entry = found.entry;
  if (!entry) throw new NotFoundError(`object does not exist [id: , rel_path: ${clean}]`, { path: clean });
  const content = entry.type === 'blob' && entry.size <= MAX_BLOB_SIZE ? (await readObject(access.gitDir, entry.sha)).content : null;
  return { ...base, result: await withCommit(entry, content) };
}

/** A raw git object as the blob API returns it. */
export interface Blob {
  repo: Models.Repository;
  sha: string;
  size: number;
  /** Null above MAX_BLOB_SIZE. */
  content: Buffer | null;
}

/**
 * Reads an object by sha (Gitea GetBlobBySHA: the type is not checked). Every lookup failure is
 * InvalidArgument (Gitea answers 400, not 404).
 * @throws NotFoundError (repository), InvalidArgumentError (sha)
 */
export async function getBlob(cx: ServiceContext, owner: string, name: string, sha: string): Promise<Blob> {
  const access = await requireCodeRead(cx, owner, name);
  const objectFormat = access.repo.objectFormatName === 'sha256' ? 64 : 40;
  if (sha.length !== 40 && sha.length !== 64) throw new InvalidArgumentError(`length ${sha.length} has no matched object format: ${sha}`);
  if (sha.length !== objectFormat || !/^[0-9a-f]+$/i.test(sha) || /^0+$/.test(sha)) {
    throw new InvalidArgumentError(`object does not exist [id: ${sha}, rel_path: ]`);
  }
  try {
    const { content } = await readObject(access.gitDir, sha.toLowerCase());
    return { repo: access.repo, sha: sha.toLowerCase(), size: content.length, content: content.length > MAX_BLOB_SIZE ? null : content };
  } catch (err) {
    if (isDomainError(err) && err.code === 'NOT_FOUND') throw new InvalidArgumentError(err.message);
    throw err;
  }
}
