// Repository topics (Gitea models/repo/topic.go): lower-case names shared site-wide with a repository count;
// a repository has at most MAX_TOPICS. The repository row keeps its topic names (Gitea repo.topics) for the
// Repository JSON and search.
import type { DbLike, Models } from '../../db/client.ts';
import { containsInsensitive } from '../../db/filters.ts';
import { NotFoundError, ValidationError } from '../../errors.ts';
import { requireTokenScope } from '../access/guards.ts';
import { requireAdminRepo, requireRepo, type RepoRef } from '../access/repoAccess.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { skipTake, type ListOptions, type ListWindow, type Page } from '../paging.ts';

/** Gitea's limit of topics per repository. */
export const MAX_TOPICS = 25;
const TOPIC_PATTERN = /^[a-z0-9][-.a-z0-9]*$/;

/** Gitea ValidateTopic: at most 35 characters of `^[a-z0-9][-.a-z0-9]*$`. */
export function validTopic(name: string): boolean {
  return name.length <= 35 && TOPIC_PATTERN.test(name);
}

/** Gitea SanitizeAndValidateTopics: trimmed, lower-cased, empty and repeated names dropped, then split by validity. */
function sanitizeTopics(names: readonly string[]): { valid: string[]; invalid: string[] } {
  const valid: string[] = [];
  const invalid: string[] = [];
  for (const raw of names) {
    const name = raw.trim().toLowerCase();
    if (!name || valid.includes(name)) continue;
    (validTopic(name) ? valid : invalid).push(name);
  }
  return { valid, invalid };
}

/** Rewrites the repository's cached topic list (Gitea syncTopicsInRepository: most used first). */
async function syncRepoTopics(tx: DbLike, repoId: number): Promise<void> {
  const rows = await tx.repoTopic.findMany({
    where: { repoId },
    select: { topic: { select: { name: true } } },
    orderBy: [{ topic: { repoCount: 'desc' } }, { topic: { name: 'asc' } }],
  });
  await tx.repository.update({ where: { id: repoId }, data: { topics: JSON.stringify(rows.map((r) => r.topic.name)) } });
}

async function addToRepo(tx: DbLike, repoId: number, name: string): Promise<void> {
  const topic = await tx.topic.upsert({ where: { name }, create: { name }, update: {} });
  if (await tx.repoTopic.findUnique({ where: { repoId_topicId: { repoId, topicId: topic.id } }, select: { id: true } })) return;
  await tx.repoTopic.create({ data: { repoId, topicId: topic.id } });
  await tx.topic.update({ where: { id: topic.id }, data: { repoCount: { increment: 1 } } });
}

async function removeFromRepo(tx: DbLike, repoId: number, topicId: number): Promise<boolean> {
  const { count } = await tx.repoTopic.deleteMany({ where: { repoId, topicId } });
  if (count) await tx.topic.update({ where: { id: topicId }, data: { repoCount: { decrement: 1 } } });
  return count > 0;
}

/** Gives repository `toRepoId` the topics of `fromRepoId` (Gitea GenerateTopics). */
export async function copyRepoTopics(tx: DbLike, fromRepoId: number, toRepoId: number): Promise<void> {
  const rows = await tx.repoTopic.findMany({ where: { repoId: fromRepoId }, select: { topic: { select: { name: true } } } });
  for (const r of rows) await addToRepo(tx, toRepoId, r.topic.name);
  await syncRepoTopics(tx, toRepoId);
}

/** A repository (any unit readable) for reads of its topics. */
async function readableRepo(cx: ServiceContext, ref: RepoRef): Promise<Models.Repository> {
  requireTokenScope(cx, 'repository', 'read');
  return (await requireRepo(cx, ref.owner, ref.repo)).repo;
}

/**
 * The repository's topic names, by name (GET /repos/{o}/{r}/topics).
 * @throws NotFoundError
 */
export async function listRepoTopics(cx: ServiceContext, ref: RepoRef, opts: ListOptions | ListWindow): Promise<Page<Models.Topic>> {
  const repo = await readableRepo(cx, ref);
  return repoTopicsPage(cx.db, repo.id, opts);
}

/** One page of a repository's topics by name, with the total. */
export async function repoTopicsPage(db: DbLike, repoId: number, opts: ListOptions | ListWindow): Promise<Page<Models.Topic>> {
  const where = { repoTopics: { some: { repoId } } };
  const [items, total] = await Promise.all([
    db.topic.findMany({ where, orderBy: { name: 'asc' }, ...skipTake(opts) }),
    db.topic.count({ where }),
  ]);
  return { items, total };
}

/**
 * Replaces the repository's topics (PUT /repos/{o}/{r}/topics; repository admins). Names are trimmed and
 * lower-cased; more than MAX_TOPICS valid names or any invalid name is refused with Gitea's 422 JSON
 * (`topicsBody` in the error's data: Gitea answers `{"invalidTopics","message"}` without `url`).
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError, ValidationError
 */
export async function replaceTopics(cx: ServiceContext, ref: RepoRef, names: readonly string[]): Promise<Models.Repository> {
  const { repo } = await requireAdminRepo(cx, ref, 'write:repository');
  const { valid, invalid } = sanitizeTopics(names);
  if (valid.length > MAX_TOPICS)
    throw new ValidationError('Exceeding maximum number of topics per repo', { topicsBody: true, invalidTopics: null });
  if (invalid.length) throw new ValidationError('Topic names are invalid', { topicsBody: true, invalidTopics: invalid });
  return withTx(cx, async (tx, emit) => {
    const current = await tx.repoTopic.findMany({
      where: { repoId: repo.id },
      select: { topicId: true, topic: { select: { name: true } } },
    });
    for (const row of current) if (!valid.includes(row.topic.name)) await removeFromRepo(tx, repo.id, row.topicId);
    for (const name of valid) if (!current.some((r) => r.topic.name === name)) await addToRepo(tx, repo.id, name);
    await syncRepoTopics(tx, repo.id);
    emit({ type: 'repo.updated', repoId: repo.id, actorId: cx.viewer?.id ?? null, fields: ['topics'] });
    return tx.repository.findUniqueOrThrow({ where: { id: repo.id } });
  });
}

/** Gitea's 422 for a topic path parameter that is not a valid name (`invalidTopics` is the name itself). */
function requireValidTopic(name: string): string {
  const topic = name.trim().toLowerCase();
  if (!validTopic(topic)) throw new ValidationError('Topic name is invalid', { topicsBody: true, invalidTopics: topic });
  return topic;
}

/**
 * Adds one topic (PUT /repos/{o}/{r}/topics/{topic}; repository admins); an existing one changes nothing.
 * @throws NotFoundError, PermissionDeniedError, ValidationError (invalid name, MAX_TOPICS reached)
 */
export async function addTopic(cx: ServiceContext, ref: RepoRef, name: string): Promise<void> {
  const { repo } = await requireAdminRepo(cx, ref, 'write:repository');
  const topic = requireValidTopic(name);
  if ((await cx.db.repoTopic.count({ where: { repoId: repo.id } })) >= MAX_TOPICS) {
    throw new ValidationError('Exceeding maximum allowed topics per repo.', { topicsBody: true });
  }
  await withTx(cx, async (tx, emit) => {
    await addToRepo(tx, repo.id, topic);
    await syncRepoTopics(tx, repo.id);
    emit({ type: 'repo.updated', repoId: repo.id, actorId: cx.viewer?.id ?? null, fields: ['topics'] });
  });
}

/**
 * Removes one topic (DELETE /repos/{o}/{r}/topics/{topic}; repository admins).
 * @throws NotFoundError (also when the repository does not have it), PermissionDeniedError, ValidationError
 */
export async function deleteTopic(cx: ServiceContext, ref: RepoRef, name: string): Promise<void> {
  const { repo } = await requireAdminRepo(cx, ref, 'write:repository');
  const topic = requireValidTopic(name);
  await withTx(cx, async (tx, emit) => {
    const row = await tx.topic.findUnique({ where: { name: topic }, select: { id: true } });
    if (!row || !(await removeFromRepo(tx, repo.id, row.id))) throw new NotFoundError('not found', { topic });
    await syncRepoTopics(tx, repo.id);
    emit({ type: 'repo.updated', repoId: repo.id, actorId: cx.viewer?.id ?? null, fields: ['topics'] });
  });
}

/**
 * Topics whose name contains `q`, most used first (GET /topics/search).
 * @throws PermissionDeniedError (token scope)
 */
export async function searchTopics(cx: ServiceContext, q: string | undefined, opts: ListOptions | ListWindow): Promise<Page<Models.Topic>> {
  requireTokenScope(cx, 'repository', 'read');
  const where: Models.Prisma.TopicWhereInput = q ? { name: containsInsensitive(cx.config.dbProvider, q) } : {};
  const [items, total] = await Promise.all([
    cx.db.topic.findMany({ where, orderBy: [{ repoCount: 'desc' }, { id: 'asc' }], ...skipTake(opts) }),
    cx.db.topic.count({ where }),
  ]);
  return { items, total };
}
