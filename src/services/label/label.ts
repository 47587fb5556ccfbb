import type { DbLike, Models } from '../../db/client.ts';
import { containsInsensitive } from '../../db/filters.ts';
import { refreshLabelCounters } from '../../db/labelCounters.ts';
import type { DbProvider } from '../../db/migrate/engine.ts';
import { NotFoundError, ValidationError } from '../../errors.ts';
import { requireTokenScope, requireViewer } from '../access/guards.ts';
import { canSeeOrg, orgAccess, requireOrg, requireOrgOwner, type OrgAccess } from '../access/orgAccess.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { skipTake, type ListOptions, type ListWindow, type Page } from '../paging.ts';
import { normalizeColor } from './color.ts';

type Label = Models.Label;
type Level = 'read' | 'write';

/** Where labels live, as stored: an organization's or a repository's (the row carries orgId or repoId). */
export type LabelScope = { orgId: number } | { repoId: number };

/** How transports name a label owner. Repository labels will add `{ owner, repo }`. */
export type LabelOwnerRef = { org: string };

/** A label with what its URL needs: the owning organization's login (null for repository labels). */
export type LabelWithOwner = Label & { org: { name: string } | null };

/** A resolved, authorized owner. */
interface Owner {
  scope: LabelScope;
  org: Models.User;
}

/** GraphQL's ordering: a field and a direction (GitHub LabelOrder). */
export interface LabelOrder {
  field: 'CREATED_AT' | 'NAME' | 'ISSUE_COUNT';
  direction: 'ASC' | 'DESC';
}

export interface ListLabelsInput {
  sort?: string;
  /** `all` = no pagination (Gitea's label lists without `page`). */
  page: ListOptions | ListWindow | 'all';
}

export interface CreateLabelInput {
  name: string;
  color: string;
  description?: string;
  exclusive?: boolean;
  isArchived?: boolean;
}

/** Only given fields change; `isArchived` absent leaves the archive state alone. */
export interface UpdateLabelInput {
  name?: string;
  color?: string;
  description?: string;
  exclusive?: boolean;
  isArchived?: boolean;
}

/** The Prisma filter of a scope's labels. */
export function scopeWhere(scope: LabelScope): Models.Prisma.LabelWhereInput {
  return 'orgId' in scope ? { orgId: scope.orgId } : { repoId: scope.repoId };
}

/** Gitea's messages: the org routes answer a bare "not found"; repository labels name the ids. */
function labelNotFound(scope: LabelScope, id: number | string): NotFoundError {
  if ('orgId' in scope) return new NotFoundError('not found', { labelId: id, orgId: scope.orgId });
  return new NotFoundError(`label does not exist [label_id: ${typeof id === 'number' ? id : 0}, repo_id: ${scope.repoId}]`, {
    labelId: id,
  });
}

function authorize(cx: ServiceContext, access: OrgAccess, level: Level): Owner {
  if (level === 'write') {
    requireViewer(cx);
    requireOrgOwner(cx, access, 'write:organization');
  }
  return { scope: { orgId: access.org.id }, org: access.org };
}

/** Gitea's order of gates for /orgs/{org}/labels: token scope, org visible (404), reqToken (401), reqOrgOwnership (403). */
async function resolveOwner(cx: ServiceContext, ref: LabelOwnerRef, level: Level): Promise<Owner> {
  requireTokenScope(cx, 'organization', level);
  return authorize(cx, await requireOrg(cx, ref.org), level);
}

/** The owner of an already-loaded label, authorized like resolveOwner; an invisible owner hides the label. */
async function ownerOfLabel(cx: ServiceContext, label: Label, level: Level): Promise<Owner> {
  if (label.orgId === null) throw new NotFoundError(`label does not exist [label_id: ${label.id}]`, { labelId: label.id });
  requireTokenScope(cx, 'organization', level);
  const org = await cx.db.user.findUnique({ where: { id: label.orgId } });
  const access = org ? await orgAccess(cx, org) : null;
  if (!access || !canSeeOrg(cx, access)) throw new NotFoundError(`label does not exist [label_id: ${label.id}]`, { labelId: label.id });
  return authorize(cx, access, level);
}

const withOrg = (label: Label, owner: Owner): LabelWithOwner => ({
  ...label,
  org: 'orgId' in owner.scope ? { name: owner.org.name } : null,
});

function requireText(value: string | undefined, field: string): void {
  if (value === undefined) return;
  // PostgreSQL text cannot hold NUL: refuse it as input rather than fail in the database.
  if (value.includes('\u0000')) throw new ValidationError('Invalid', { field, rule: 'Invalid' });
}

function validate(input: UpdateLabelInput): { color?: string } {
  if (input.name !== undefined && input.name === '') throw new ValidationError('Required', { field: 'name', rule: 'Required' });
  requireText(input.name, 'name');
  requireText(input.description, 'description');
  return input.color === undefined ? {} : { color: normalizeColor(input.color) };
}

/** The orderBy of Gitea's `sort` (name ascending by default), ties broken by id. */
export function labelSortOrder(sort: string | undefined): Models.Prisma.LabelOrderByWithRelationInput[] {
  switch (sort) {
    case 'reversealphabetically':
      return [{ name: 'desc' }, { id: 'asc' }];
    case 'leastissues':
      return [{ numIssues: 'asc' }, { id: 'asc' }];
    case 'mostissues':
      return [{ numIssues: 'desc' }, { id: 'asc' }];
    default:
      return [{ name: 'asc' }, { id: 'asc' }];
  }
}

/** The orderBy of a GraphQL LabelOrder (GitHub's default: CREATED_AT ascending), ties broken by id. */
export function labelOrderBy(order: LabelOrder | undefined): Models.Prisma.LabelOrderByWithRelationInput[] {
  const dir = order?.direction === 'DESC' ? 'desc' : 'asc';
  switch (order?.field) {
    case 'NAME':
      return [{ name: dir }, { id: dir }];
    case 'ISSUE_COUNT':
      return [{ numIssues: dir }, { id: dir }];
    default:
      return [{ createdAt: dir }, { id: dir }];
  }
}

/** A filter within an owner's labels: exact name, or a case-insensitive name substring (GitHub `query`). */
export function labelSearchFilter(provider: DbProvider, opts: { name?: string; query?: string }): Models.Prisma.LabelWhereInput {
  const where: Models.Prisma.LabelWhereInput = {};
  if (opts.name !== undefined) where.name = opts.name;
  if (opts.query) where.AND = [{ name: containsInsensitive(provider, opts.query) }];
  return where;
}

/**
 * An owner's labels (GET /orgs/{org}/labels): sorted per Gitea's `sort`, paged, or all of them without a page.
 * @throws NotFoundError when the organization is not visible
 */
export async function listLabels(cx: ServiceContext, ref: LabelOwnerRef, input: ListLabelsInput): Promise<Page<LabelWithOwner>> {
  const owner = await resolveOwner(cx, ref, 'read');
  const where = scopeWhere(owner.scope);
  const [items, total] = await Promise.all([
    cx.db.label.findMany({ where, orderBy: labelSortOrder(input.sort), ...(input.page === 'all' ? {} : skipTake(input.page)) }),
    cx.db.label.count({ where }),
  ]);
  return { items: items.map((l) => withOrg(l, owner)), total };
}

/**
 * One label by id, or by exact name when `idOrName` is not an integer (Gitea's GetLabel).
 * @throws NotFoundError (invisible owner, absent, or another owner's label)
 */
export async function getLabel(cx: ServiceContext, ref: LabelOwnerRef, idOrName: string): Promise<LabelWithOwner> {
  const owner = await resolveOwner(cx, ref, 'read');
  const label = await findInScope(cx.db, owner.scope, idOrName);
  return withOrg(label, owner);
}

/** A label of the scope by id, or by exact name when `idOrName` is not an integer. @throws NotFoundError */
export async function findInScope(db: DbLike, scope: LabelScope, idOrName: string | number): Promise<Label> {
  const byId = typeof idOrName === 'number' || /^[+-]?\d+$/.test(idOrName);
  const id = Number(idOrName);
  let label: Label | null = null;
  if (byId && id > 0 && id <= 2_147_483_647) {
    label = await db.label.findFirst({ where: { id, ...scopeWhere(scope) } });
  } else if (!byId && idOrName !== '') {
    label = await db.label.findFirst({ where: { name: String(idOrName), ...scopeWhere(scope) }, orderBy: { id: 'asc' } });
  }
  if (!label) throw labelNotFound(scope, byId ? id : String(idOrName));
  return label;
}

/**
 * Creates a label (organization owners and site admins).
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError, ValidationError (name required, `invalid color: …`)
 */
export async function createLabel(cx: ServiceContext, ref: LabelOwnerRef, input: CreateLabelInput): Promise<LabelWithOwner> {
  const owner = await resolveOwner(cx, ref, 'write');
  return withOrg(await createInScope(cx, owner.scope, input), owner);
}

/** Creates a label in an already-authorized scope (repository labels authorize in services/repo). @throws ValidationError */
export async function createInScope(cx: ServiceContext, scope: LabelScope, input: CreateLabelInput): Promise<Label> {
  const { color } = validate(input);
  return withTx(cx, async (tx, emit) => {
    const label = await tx.label.create({
      data: {
        ...scope,
        name: input.name,
        color: color ?? '',
        description: input.description ?? '',
        exclusive: input.exclusive ?? false,
        archivedAt: input.isArchived ? new Date() : null,
      },
    });
    emit({ type: 'label.created', labelId: label.id, orgId: label.orgId, repoId: label.repoId, actorId: cx.viewer?.id ?? null });
    return label;
  });
}

/** Edits a label of the owner. @throws NotFoundError, UnauthenticatedError, PermissionDeniedError, ValidationError */
export async function updateLabel(cx: ServiceContext, ref: LabelOwnerRef, id: number, input: UpdateLabelInput): Promise<LabelWithOwner> {
  const owner = await resolveOwner(cx, ref, 'write');
  const label = await findInScope(cx.db, owner.scope, id);
  return applyUpdate(cx, owner, label, input);
}

/** Edits a label found by its id alone (GraphQL updateLabel). @throws NotFoundError, PermissionDeniedError, ValidationError */
export async function updateLabelById(cx: ServiceContext, id: number, input: UpdateLabelInput): Promise<LabelWithOwner> {
  const label = await findVisibleLabel(cx, id);
  const owner = await ownerOfLabel(cx, label, 'write');
  return applyUpdate(cx, owner, label, input);
}

async function applyUpdate(cx: ServiceContext, owner: Owner, label: Label, input: UpdateLabelInput): Promise<LabelWithOwner> {
  return withOrg(await updateLabelRow(cx, label, input), owner);
}

/** Edits an already-authorized label (only given fields change). @throws ValidationError */
export async function updateLabelRow(cx: ServiceContext, label: Label, input: UpdateLabelInput): Promise<Label> {
  const { color } = validate(input);
  const archivedAt = input.isArchived === undefined ? undefined : input.isArchived ? (label.archivedAt ?? new Date()) : null;
  return withTx(cx, async (tx, emit) => {
    // Gitea's UpdateLabel also re-counts the label's issues from issue_label.
    await refreshLabelCounters(tx, [label.id]);
    const updated = await tx.label.update({
      where: { id: label.id },
      data: { name: input.name, color, description: input.description, exclusive: input.exclusive, archivedAt },
    });
    emit({ type: 'label.updated', labelId: updated.id, orgId: updated.orgId, repoId: updated.repoId, actorId: cx.viewer?.id ?? null });
    return updated;
  });
}

/** Deletes a label of the owner, with its issue links and label comments. @throws NotFoundError, UnauthenticatedError, PermissionDeniedError */
export async function deleteLabel(cx: ServiceContext, ref: LabelOwnerRef, id: number): Promise<void> {
  const owner = await resolveOwner(cx, ref, 'write');
  const label = await findInScope(cx.db, owner.scope, id);
  await applyDelete(cx, label);
}

/** Deletes a label found by its id alone (GraphQL deleteLabel). @throws NotFoundError, PermissionDeniedError */
export async function deleteLabelById(cx: ServiceContext, id: number): Promise<void> {
  const label = await findVisibleLabel(cx, id);
  await ownerOfLabel(cx, label, 'write');
  await applyDelete(cx, label);
}

/** Deletes an already-authorized label with its issue links and label comments. */
export async function applyDelete(cx: ServiceContext, label: Label): Promise<void> {
  await withTx(cx, async (tx, emit) => {
    await tx.comment.deleteMany({ where: { labelId: label.id } });
    await tx.label.deleteMany({ where: { id: label.id } });
    emit({ type: 'label.deleted', labelId: label.id, orgId: label.orgId, repoId: label.repoId, actorId: cx.viewer?.id ?? null });
  });
}

async function findVisibleLabel(cx: ServiceContext, id: number): Promise<Label> {
  const label = id > 0 && id <= 2_147_483_647 ? await cx.db.label.findUnique({ where: { id } }) : null;
  if (!label) throw new NotFoundError(`label does not exist [label_id: ${id}]`, { labelId: id });
  return label;
}
