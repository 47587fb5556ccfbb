// Releases (Gitea services/release and routers/api/v1/repo/release.go): their views, read and write gates, list and
// read. Creating, editing and deleting are in releaseWrite.ts.
import type { DbLike, Models } from '../../db/client.ts';
import { NotFoundError } from '../../errors.ts';
import { requireTokenScope, requireViewer } from '../access/guards.ts';
import { requireRepo, requireUnitRead, requireUnitWrite, type RepoAccess, type RepoRef } from '../access/repoAccess.ts';
import { type ServiceContext } from '../context.ts';
import { skipTake, type ListOptions, type ListWindow, type Page } from '../paging.ts';
import { releaseReadWhere } from './visibility.ts';
import { isDbId } from '../dbId.ts';

type Release = Models.Release;

/** A release with what its REST and GraphQL forms need, bulk-loaded. */
export interface ReleaseView {
  release: Release;
  repo: Pick<Models.Repository, 'id' | 'ownerName' | 'name'>;
  publisher: Models.User | null;
  attachments: Models.Attachment[];
}

/** Gitea's release order: newest first (created_unix DESC, id DESC). */
export const RELEASE_ORDER: Models.Prisma.ReleaseOrderByWithRelationInput[] = [{ createdAt: 'desc' }, { id: 'desc' }];

/** Loads the publishers, repositories and assets of many releases in a constant number of queries. */
export async function loadReleaseViews(db: DbLike, releases: readonly Release[]): Promise<ReleaseView[]> {
  if (!releases.length) return [];
  const ids = releases.map((r) => r.id);
  const publisherIds = [...new Set(releases.map((r) => r.publisherId).filter((id): id is number => id !== null))];
  const [repos, publishers, attachments] = await Promise.all([
    db.repository.findMany({
      where: { id: { in: [...new Set(releases.map((r) => r.repoId))] } },
      select: { id: true, ownerName: true, name: true },
    }),
    publisherIds.length ? db.user.findMany({ where: { id: { in: publisherIds } } }) : [],
    db.attachment.findMany({ where: { releaseId: { in: ids } }, orderBy: { id: 'asc' } }),
  ]);
  const repoById = new Map(repos.map((r) => [r.id, r]));
  const userById = new Map(publishers.map((u) => [u.id, u]));
  return releases.map((release) => {
    const repo = repoById.get(release.repoId);
    if (!repo) throw new NotFoundError('repository does not exist', { repoId: release.repoId });
    return {
      release,
      repo,
      publisher: release.publisherId === null ? null : (userById.get(release.publisherId) ?? null),
      attachments: attachments.filter((a) => a.releaseId === release.id),
    };
  });
}

export async function loadReleaseView(db: DbLike, release: Release): Promise<ReleaseView> {
  const [view] = await loadReleaseViews(db, [release]);
  return view!;
}

/** The releases unit readable (404), with the read scope. @throws NotFoundError */
async function requireReleaseRead(cx: ServiceContext, ref: RepoRef): Promise<RepoAccess> {
  requireTokenScope(cx, 'repository', 'read');
  const access = await requireRepo(cx, ref.owner, ref.repo);
  requireUnitRead(access, 'RELEASES');
  return access;
}

/**
 * Gitea's release write gates (reqToken, reqRepoWriter(TypeReleases), mustNotBeArchived): the write gate with
 * write:repository, releases writable (403), the repository not archived (423).
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError, RepoArchivedError
 */
export async function requireReleaseWrite(cx: ServiceContext, ref: RepoRef): Promise<RepoAccess & { viewer: Models.User }> {
  const access = await requireRepo(cx, ref.owner, ref.repo);
  requireUnitRead(access, 'RELEASES');
  const viewer = requireViewer(cx);
  requireUnitWrite(cx, access, 'RELEASES', 'write:repository');
  return { ...access, viewer };
}

/** A release of the repository the viewer may read (not a bare tag; a draft only for writers). @throws NotFoundError */
async function findReadable(cx: ServiceContext, repoId: number, where: Models.Prisma.ReleaseWhereInput): Promise<Release> {
  const row = await cx.db.release.findFirst({ where: { AND: [releaseReadWhere(cx), { repoId }, where] }, orderBy: RELEASE_ORDER });
  if (!row) throw new NotFoundError('not found', { repoId });
  return row;
}

/** GET …/releases filters: `draft` and `prerelease` include or exclude; absent = both. */
export interface ListReleasesInput {
  draft?: boolean;
  prerelease?: boolean;
  page: ListOptions | ListWindow;
}

/** The filter of a release list (the read policy, the repository, Gitea's draft/pre-release filters). */
export function releaseListWhere(
  cx: ServiceContext,
  repoId: number,
  input: Omit<ListReleasesInput, 'page'>,
): Models.Prisma.ReleaseWhereInput {
  return {
    AND: [
      releaseReadWhere(cx),
      { repoId },
      input.draft === undefined ? {} : { isDraft: input.draft },
      input.prerelease === undefined ? {} : { isPrerelease: input.prerelease },
    ],
  };
}

/** A repository's releases, newest first, without bare tags; drafts only for writers. @throws NotFoundError */
export async function listReleases(cx: ServiceContext, ref: RepoRef, input: ListReleasesInput): Promise<Page<ReleaseView>> {
  const access = await requireReleaseRead(cx, ref);
  const where = releaseListWhere(cx, access.repo.id, input);
  const [rows, total] = await Promise.all([
    cx.db.release.findMany({ where, orderBy: RELEASE_ORDER, ...skipTake(input.page) }),
    cx.db.release.count({ where }),
  ]);
  return { items: await loadReleaseViews(cx.db, rows), total };
}

/** One release by id. @throws NotFoundError */
export async function getRelease(cx: ServiceContext, ref: RepoRef, id: number): Promise<ReleaseView> {
  const access = await requireReleaseRead(cx, ref);
  if (!isDbId(id)) throw new NotFoundError('not found', { id });
  return loadReleaseView(cx.db, await findReadable(cx, access.repo.id, { id }));
}

/** The release of a tag (exact name, as Gitea's lower_tag_name lookup). @throws NotFoundError */
export async function getReleaseByTag(cx: ServiceContext, ref: RepoRef, tag: string): Promise<ReleaseView> {
  const access = await requireReleaseRead(cx, ref);
  return loadReleaseView(cx.db, await findReadable(cx, access.repo.id, { lowerTagName: tag.toLowerCase() }));
}

/** The newest release that is neither a draft nor a pre-release (Gitea GetLatestReleaseByRepoID). @throws NotFoundError */
export async function getLatestRelease(cx: ServiceContext, ref: RepoRef): Promise<ReleaseView> {
  const access = await requireReleaseRead(cx, ref);
  return loadReleaseView(cx.db, await findReadable(cx, access.repo.id, { isDraft: false, isPrerelease: false }));
}

/**
 * Whether each release is its repository's latest (the newest published, non-pre-release one), in two queries
 * whatever the number of releases (GraphQL `isLatest`).
 */
export async function latestReleaseFlags(cx: ServiceContext, ids: readonly number[]): Promise<boolean[]> {
  const rows = await cx.db.release.findMany({ where: { id: { in: [...ids] } }, select: { id: true, repoId: true } });
  const repoIds = [...new Set(rows.map((r) => r.repoId))];
  const latest = repoIds.length
    ? await cx.db.release.findMany({
        where: { repoId: { in: repoIds }, isTag: false, isDraft: false, isPrerelease: false },
        orderBy: [{ repoId: 'asc' }, ...RELEASE_ORDER],
        distinct: ['repoId'],
        select: { id: true },
      })
    : [];
  const latestIds = new Set(latest.map((r) => r.id));
  return ids.map((id) => latestIds.has(id));
}
