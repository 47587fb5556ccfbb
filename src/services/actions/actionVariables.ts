// Actions variables (Gitea services/actions/variables.go, routers/api/v1/{repo,org,user}/action.go): readable
// values at repository, organization or user level, handed to every task of the scope.
import type { Models } from '../../db/client.ts';
import { AlreadyExistsError, NotFoundError } from '../../errors.ts';
import type { ServiceContext } from '../context.ts';
import { skipTake, type ListOptions, type Page } from '../paging.ts';
import { normalizeLineBreaks, settingName } from './settingsNames.ts';
import { requireSettingsScope, type SettingsRef, type SettingsScope } from './settingsScope.ts';

const scopeWhere = (scope: SettingsScope) => ({ ownerId: scope.ownerId, repoId: scope.repoId });

/** Gitea GetVariable: matched by the upper-cased name. @throws NotFoundError "variable not found" */
async function findVariable(cx: ServiceContext, scope: SettingsScope, name: string): Promise<Models.ActionVariable> {
  const row = await cx.db.actionVariable.findFirst({ where: { ...scopeWhere(scope), name: name.toUpperCase() } });
  if (!row) throw new NotFoundError('variable not found');
  return row;
}

export async function listVariables(cx: ServiceContext, ref: SettingsRef, page: ListOptions): Promise<Page<Models.ActionVariable>> {
  const where = scopeWhere(await requireSettingsScope(cx, ref, 'read'));
  const [items, total] = await Promise.all([
    cx.db.actionVariable.findMany({ where, orderBy: { name: 'asc' }, ...skipTake(page) }),
    cx.db.actionVariable.count({ where }),
  ]);
  return { items, total };
}

export async function getVariable(cx: ServiceContext, ref: SettingsRef, name: string): Promise<Models.ActionVariable> {
  return findVariable(cx, await requireSettingsScope(cx, ref, 'read'), name);
}

/** POST. @throws AlreadyExistsError "variable name X already exists" (409), InvalidArgumentError (name) */
export async function createVariable(
  cx: ServiceContext,
  ref: SettingsRef,
  input: { name: string; value: string; description: string },
): Promise<Models.ActionVariable> {
  const scope = await requireSettingsScope(cx, ref, 'write');
  const exists = await cx.db.actionVariable.findFirst({ where: { ...scopeWhere(scope), name: input.name.toUpperCase() } });
  if (exists) throw new AlreadyExistsError(`variable name ${input.name} already exists`);
  const name = settingName(input.name);
  return cx.db.actionVariable.create({
    data: { ...scopeWhere(scope), name, data: normalizeLineBreaks(input.value), description: input.description },
  });
}

/**
 * PUT: new value and description, and a new name when `newName` is given.
 * @throws NotFoundError, InvalidArgumentError (new name), AlreadyExistsError (new name taken)
 */
export async function updateVariable(
  cx: ServiceContext,
  ref: SettingsRef,
  input: { name: string; newName: string; value: string; description: string },
): Promise<Models.ActionVariable> {
  const scope = await requireSettingsScope(cx, ref, 'write');
  const row = await findVariable(cx, scope, input.name);
  const name = settingName(input.newName || input.name);
  if (name !== row.name && (await cx.db.actionVariable.findFirst({ where: { ...scopeWhere(scope), name } }))) {
    throw new AlreadyExistsError(`variable name ${name} already exists`);
  }
  return cx.db.actionVariable.update({
    where: { id: row.id },
    data: { name, data: normalizeLineBreaks(input.value), description: input.description },
  });
}

/** DELETE. @throws InvalidArgumentError (name), NotFoundError */
export async function deleteVariable(cx: ServiceContext, ref: SettingsRef, rawName: string): Promise<void> {
  const scope = await requireSettingsScope(cx, ref, 'write');
  const name = settingName(rawName);
  const { count } = await cx.db.actionVariable.deleteMany({ where: { ...scopeWhere(scope), name } });
  if (!count) throw new NotFoundError('variable not found');
}

/** The variables of a run (Gitea GetVariablesOfRun): the instance's, then the owner's, then the repository's win. */
export async function variablesOfRun(
  cx: ServiceContext,
  run: Pick<Models.ActionRun, 'repoId' | 'ownerId'>,
): Promise<Record<string, string>> {
  const rows = await cx.db.actionVariable.findMany({
    where: { OR: [{ ownerId: null, repoId: null }, { ownerId: run.ownerId }, { repoId: run.repoId }] },
  });
  const rank = (v: Models.ActionVariable) => (v.repoId !== null ? 2 : v.ownerId !== null ? 1 : 0);
  rows.sort((a, b) => rank(a) - rank(b));
  return Object.fromEntries(rows.map((v) => [v.name, v.data]));
}
