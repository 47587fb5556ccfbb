// Cross references between issues (Gitea models/issues/comment_xref.go): ISSUE_REF / PULL_REF / COMMENT_REF timeline
// comments on the referenced issues, and the closing/reopening a merged pull request's references cause.
import type { DbLike, Models } from '../../db/client.ts';
import { repoPermissionLoader } from '../../loaders/permissionLoaders.ts';
import { canRead, canWrite, type RepoPermission } from '../../permissions/repoPermission.ts';
import { findRepoByName } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { setIssueStateBySystem } from './edit.ts';
import { unitOf } from './issue.ts';
import { findReferences, findReferencesMarkdown, mayReference, type IssueReference, type RefAction } from './references.ts';
import { insertRows } from '../../db/insertRows.ts';
import { readRows } from '../../db/readPath.ts';

type Issue = Models.Issue;

/** Where references were written: an issue's title and body, or one of its comments. */
export interface XrefSource {
  issue: Issue;
  comment: Models.Comment | null;
  doer: Models.User;
}

interface CrossReference {
  issue: Issue;
  action: RefAction;
}

/** The doer's permission on repositories (one loader per source, batched). */
type PermissionOf = (repoId: number) => Promise<RepoPermission>;

/**
 * Gitea verifyReferencedIssue: the referenced issue if it exists and the doer can read it; close/reopen only from
 * a pull request to an issue, and only when the doer could change the issue now (its poster or a writer) — except
 * a pull request's own body referencing an issue of its repository, where the merger answers for it.
 */
async function verify(
  cx: ServiceContext,
  source: XrefSource,
  repo: Models.Repository,
  ref: IssueReference,
  permOf: PermissionOf,
): Promise<CrossReference | null> {
  const refIssue = await cx.db.issue.findUnique({ where: { repoId_index: { repoId: repo.id, index: ref.index } } });
  if (!refIssue) return null;
  let action = refIssue.isPull || !source.issue.isPull ? 'NONE' : ref.action;
  if (refIssue.repoId !== source.issue.repoId || ref.action !== 'NONE') {
    const perm = await permOf(repo.id);
    if (!canRead(perm, unitOf(refIssue))) return null;
    const sameRepoBody = refIssue.repoId === source.issue.repoId && source.comment === null;
    if (ref.action !== 'NONE' && source.doer.id !== refIssue.posterId && !canWrite(perm, unitOf(refIssue)) && !sameRepoBody)
      action = 'NONE';
  }
  return { issue: refIssue, action };
}

/** The references a source's plain text (a title) and markdown (a body or comment) make, none verified yet. */
function referencesOf(rootUrl: string, plain: string, markdown: string): IssueReference[] {
  return [...findReferences(plain, rootUrl), ...findReferencesMarkdown(markdown)];
}

/** Whether a text names any issue or pull request at all (whether they exist is not asked). */
export function namesReferences(rootUrl: string, plain: string, markdown: string): boolean {
  if (!mayReference(plain) && !mayReference(markdown)) return false;
  return referencesOf(rootUrl, plain, markdown).length > 0;
}

/** The verified references of a source's text, one per referenced issue (a later keyword wins), never itself. */
async function crossReferences(cx: ServiceContext, source: XrefSource, plain: string, markdown: string): Promise<CrossReference[]> {
  const refs = referencesOf(cx.config.rootUrl, plain, markdown);
  if (!refs.length) return [];
  const loader = repoPermissionLoader(cx.db, source.doer);
  const permOf: PermissionOf = (repoId) => loader.load(repoId);
  const sourceRepo = await cx.db.repository.findUnique({ where: { id: source.issue.repoId } });
  if (!sourceRepo) return [];
  const list: CrossReference[] = [];
  for (const ref of refs) {
    const repo = ref.owner === '' ? sourceRepo : await findRepoByName(cx.db, ref.owner, ref.name);
    if (!repo) continue;
    const xref = await verify(cx, source, repo, ref, permOf);
    if (!xref || xref.issue.id === source.issue.id) continue;
    const seen = list.find((x) => x.issue.id === xref.issue.id);
    if (!seen) list.push(xref);
    else if (xref.action !== 'NONE') seen.action = xref.action;
  }
  return list;
}

/**
 * Gitea createCrossReferences with removeOld: writes a reference comment on every issue the text references; the
 * source's earlier references that the text no longer makes are neutered and unchanged ones kept (so a replayed
 * job adds no duplicates). They usually stand as the text makes them already (an edit that left them alone, a
 * replayed job): that is seen on the read path and nothing is written, without a transaction.
 */
async function createCrossReferences(cx: ServiceContext, source: XrefSource, plain: string, markdown: string): Promise<void> {
  const xrefs = await crossReferences(cx, source, plain, markdown);
  const type: Models.CommentType = source.comment ? 'COMMENT_REF' : source.issue.isPull ? 'PULL_REF' : 'ISSUE_REF';
  const refCommentId = source.comment?.id ?? null;
  /** What to change against the source's active references as `db` reads them: those to neuter, those to add. */
  const changes = async (db: DbLike) => {
    const byComment = refCommentId === null ? '"refCommentId" IS NULL' : '"refCommentId" = ?';
    const active = await readRows<'Comment', Pick<Models.Comment, 'id' | 'issueId' | 'refAction'>>(
      db,
      'Comment',
      `SELECT "id", "issueId", "refAction" FROM "Comment" WHERE "refIssueId" = ? AND ${byComment} AND "refAction" IN (?) AND "type" = ?`,
      [source.issue.id, ...(refCommentId === null ? [] : [refCommentId]), ['NONE', 'CLOSES', 'REOPENS'], type],
    );
    let add = xrefs;
    const neuter: number[] = [];
    for (const c of active) {
      const i = add.findIndex((x) => x.issue.id === c.issueId && x.action === c.refAction);
      if (i >= 0) add = add.filter((_x, j) => j !== i);
      else neuter.push(c.id);
    }
    return { add, neuter };
  };
  const seen = await changes(cx.db);
  if (!seen.add.length && !seen.neuter.length) return;
  await cx.db.$transaction(async (tx) => {
    const { add, neuter } = await changes(tx);
    if (neuter.length) await tx.comment.updateMany({ where: { id: { in: neuter } }, data: { refAction: 'NEUTERED' } });
    await insertRows(
      tx,
      'Comment',
      add.map((x) => ({
        type,
        posterId: source.doer.id,
        issueId: x.issue.id,
        refRepoId: source.issue.repoId,
        refIssueId: source.issue.id,
        refCommentId,
        refAction: x.action,
        refIsPull: source.issue.isPull,
      })),
    );
  });
}

/** Gitea Issue.AddCrossReferences: the references of an issue's or pull request's title and body. */
export async function addIssueCrossReferences(cx: ServiceContext, issue: Issue, doer: Models.User): Promise<void> {
  await createCrossReferences(cx, { issue, comment: null, doer }, issue.title, issue.content);
}

/** Gitea Comment.AddCrossReferences: the references of a plain or code comment. */
export async function addCommentCrossReferences(cx: ServiceContext, comment: Models.Comment, doer: Models.User): Promise<void> {
  if (comment.type !== 'COMMENT' && comment.type !== 'CODE') return;
  const issue = await cx.db.issue.findUnique({ where: { id: comment.issueId } });
  if (!issue) return;
  await createCrossReferences(cx, { issue, comment, doer }, '', comment.content);
}

/** Gitea neuterCrossReferences: the references a deleted comment made no longer act. */
export async function neuterCommentCrossReferences(cx: ServiceContext, issueId: number, commentId: number): Promise<void> {
  await cx.db.comment.updateMany({
    where: { refIssueId: issueId, refCommentId: commentId, refAction: { in: ['NONE', 'CLOSES', 'REOPENS'] } },
    data: { refAction: 'NEUTERED' },
  });
}

/**
 * Gitea ResolveCrossReferences + the merge's ChangeStatus: the issues a merged pull request's references close
 * or reopen (the latest reference per issue wins), each changed by the merger when the merger could change it
 * (its poster or a writer of its issues), with the merge commit on the CLOSE/REOPEN comment.
 */
export async function resolvePullReferences(cx: ServiceContext, pullIssueId: number, mergerId: number, commitId: string): Promise<void> {
  const pull = await cx.db.issue.findUnique({ where: { id: pullIssueId } });
  const merger = await cx.db.user.findUnique({ where: { id: mergerId } });
  if (!pull || !merger) return;
  const refs = await cx.db.comment.findMany({
    where: { refRepoId: pull.repoId, refIssueId: pull.id, refAction: { in: ['CLOSES', 'REOPENS'] } },
    orderBy: { id: 'asc' },
    include: { issue: true },
  });
  const latest = new Map<number, (typeof refs)[number]>();
  for (const r of refs) latest.set(r.issueId, r);
  const perms = repoPermissionLoader(cx.db, merger);
  for (const ref of latest.values()) {
    const close = ref.refAction === 'CLOSES';
    if (ref.issue.isClosed === close) continue;
    const perm = await perms.load(ref.issue.repoId);
    if (ref.issue.posterId !== merger.id && !canWrite(perm, unitOf(ref.issue))) continue;
    await setIssueStateBySystem(cx, ref.issue.id, close, merger.id, commitId);
  }
}
