import type { Models } from '../../db/client.ts';
import { AlreadyExistsError } from '../../errors.ts';
import { resolveIssueMetaRepo } from '../access/issueAccess.ts';
import type { RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { skipTake, type Page } from '../paging.ts';
import * as labelService from './label.ts';

/** A repository label with what its URL needs (`{repo api}/labels/{id}`). */
export type RepoLabel = labelService.LabelWithOwner & { repo: Pick<Models.Repository, 'ownerName' | 'name'> };

const view = (label: Models.Label, repo: Models.Repository): RepoLabel => ({
  ...label,
  org: null,
  repo: { ownerName: repo.ownerName, name: repo.name },
});

/**
 * The repository's own labels (organization labels are not included, as Gitea), sorted per `sort`,
 * paged, or all of them without a page.
 * @throws NotFoundError
 */
export async function listRepoLabels(cx: ServiceContext, ref: RepoRef, input: labelService.ListLabelsInput): Promise<Page<RepoLabel>> {
  const { repo } = await resolveIssueMetaRepo(cx, ref, 'read');
  const where = labelService.scopeWhere({ repoId: repo.id });
  const [items, total] = await Promise.all([
    cx.db.label.findMany({
      where,
      orderBy: labelService.labelSortOrder(input.sort),
      ...(input.page === 'all' ? {} : skipTake(input.page)),
    }),
    cx.db.label.count({ where }),
  ]);
  return { items: items.map((l) => view(l, repo)), total };
}

/**
 * One label of the repository by id, or by exact name when `idOrName` is not an integer (Gitea GetLabel).
 * @throws NotFoundError `label does not exist [label_id: …, repo_id: …]`
 */
export async function getRepoLabel(cx: ServiceContext, ref: RepoRef, idOrName: string): Promise<RepoLabel> {
  const { repo } = await resolveIssueMetaRepo(cx, ref, 'read');
  return view(await labelService.findInScope(cx.db, { repoId: repo.id }, idOrName), repo);
}

/** Creates a repository label. @throws NotFoundError, UnauthenticatedError, RepoArchivedError, PermissionDeniedError, ValidationError, AlreadyExistsError (uniqueName) */
export async function createRepoLabel(
  cx: ServiceContext,
  ref: RepoRef,
  input: labelService.CreateLabelInput,
  options: { uniqueName?: boolean } = {},
): Promise<RepoLabel> {
  const { repo } = await resolveIssueMetaRepo(cx, ref, 'write');
  // GitHub keeps label names unique per repository (Gitea does not): asked for by GitHub's door.
  if (options.uniqueName && (await cx.db.label.findFirst({ where: { repoId: repo.id, name: input.name }, select: { id: true } }))) {
    throw new AlreadyExistsError('A label with this name already exists', { field: 'name' });
  }
  return view(await labelService.createInScope(cx, { repoId: repo.id }, input), repo);
}

/** Edits a repository label (only given fields change). @throws NotFoundError, UnauthenticatedError, RepoArchivedError, PermissionDeniedError, ValidationError */
export async function updateRepoLabel(
  cx: ServiceContext,
  ref: RepoRef,
  id: number,
  input: labelService.UpdateLabelInput,
): Promise<RepoLabel> {
  const { repo } = await resolveIssueMetaRepo(cx, ref, 'write');
  const label = await labelService.findInScope(cx.db, { repoId: repo.id }, id);
  return view(await labelService.updateLabelRow(cx, label, input), repo);
}

/** Deletes a repository label. @throws NotFoundError, UnauthenticatedError, RepoArchivedError, PermissionDeniedError */
export async function deleteRepoLabel(cx: ServiceContext, ref: RepoRef, id: number): Promise<void> {
  const { repo } = await resolveIssueMetaRepo(cx, ref, 'write');
  await labelService.applyDelete(cx, await labelService.findInScope(cx.db, { repoId: repo.id }, id));
}

async function repoOfLabel(cx: ServiceContext, id: number): Promise<RepoRef | null> {
  const row = await cx.db.label.findUnique({ where: { id }, select: { repo: { select: { ownerName: true, name: true } } } });
  return row?.repo ? { owner: row.repo.ownerName, repo: row.repo.name } : null;
}

/**
 * Edits a label by id, whether it belongs to a repository or an organization (GraphQL updateLabel);
 * each kind keeps its own gates. @throws NotFoundError, PermissionDeniedError, RepoArchivedError, ValidationError
 */
export async function updateAnyLabelById(
  cx: ServiceContext,
  id: number,
  input: labelService.UpdateLabelInput,
): Promise<labelService.LabelWithOwner> {
  const ref = await repoOfLabel(cx, id);
  return ref ? updateRepoLabel(cx, ref, id, input) : labelService.updateLabelById(cx, id, input);
}

/** Deletes a label by id, repository or organization label alike (GraphQL deleteLabel). @throws NotFoundError, PermissionDeniedError */
export async function deleteAnyLabelById(cx: ServiceContext, id: number): Promise<void> {
  const ref = await repoOfLabel(cx, id);
  return ref ? deleteRepoLabel(cx, ref, id) : labelService.deleteLabelById(cx, id);
}
