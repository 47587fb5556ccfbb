// Which hooks receive a payload (Gitea PrepareWebhooks/PrepareWebhook): the active hooks of the repository,
// of its owner (user or organization) and the system hooks; each must want the event type, pass its branch
// filter, and chat-type hooks skip pushes without commits.
import type { DbLike, Models } from '../db/client.ts';
import { readRows } from '../db/readPath.ts';
import { branchFilterAllows } from '../services/glob.ts';
import { hookWants, parseHookEvent } from '../services/webhook/hookEvents.ts';
import type { OutgoingEvent } from './events/outgoing.ts';

/** A candidate hook of some repositories. */
export interface CandidateHooks {
  hooks: Models.Webhook[];
  ownerOf: Map<number, number>;
}

/**
 * True when some active hook (repository, owner or system) could receive events of these repositories; one query,
 * raw (readRows): every write that has webhook events asks it in its transaction.
 */
export async function anyActiveHook(db: DbLike, repoIds: readonly number[]): Promise<boolean> {
  const hooks = await readRows<'Webhook', Pick<Models.Webhook, 'id'>>(
    db,
    'Webhook',
    `SELECT w."id" FROM "Webhook" w WHERE w."isActive" = ? AND (w."repoId" IN (?)
      OR (w."repoId" IS NULL AND w."ownerId" IN (SELECT r."ownerId" FROM "Repository" r WHERE r."id" IN (?)))
      OR (w."repoId" IS NULL AND w."ownerId" IS NULL AND w."isSystemWebhook" = ?)) LIMIT 1`,
    [true, [...repoIds], [...repoIds], true],
  );
  return hooks.length > 0;
}

/** The active hooks that could receive events of these repositories, in Gitea's order (repository, owner, system). */
export async function candidateHooks(db: DbLike, repoIds: readonly number[]): Promise<CandidateHooks> {
  const repos = await db.repository.findMany({ where: { id: { in: [...repoIds] } }, select: { id: true, ownerId: true } });
  const hooks = await db.webhook.findMany({
    where: {
      isActive: true,
      OR: [
        { repoId: { in: [...repoIds] } },
        { repoId: null, ownerId: { in: repos.map((r) => r.ownerId) } },
        { repoId: null, ownerId: null, isSystemWebhook: true },
      ],
    },
    orderBy: { id: 'asc' },
  });
  const rank = (h: Models.Webhook) => (h.repoId !== null ? 0 : h.ownerId !== null ? 1 : 2);
  hooks.sort((a, b) => rank(a) - rank(b) || a.id - b.id);
  return { hooks, ownerOf: new Map(repos.map((r) => [r.id, r.ownerId])) };
}

const CHAT_SKIPS_EMPTY_PUSH = (type: Models.HookType) => type !== 'GITEA' && type !== 'GOGS';

/** The hooks among the candidates that take this payload. */
export function hooksFor(c: CandidateHooks, ev: OutgoingEvent): Models.Webhook[] {
  const owner = c.ownerOf.get(ev.repoId);
  return c.hooks.filter((h) => {
    const reaches =
      h.repoId === ev.repoId ||
      (h.repoId === null && h.ownerId !== null && h.ownerId === owner) ||
      (h.repoId === null && h.ownerId === null);
    if (!reaches || !hookWants(parseHookEvent(h.events), ev.eventType)) return false;
    if (ev.eventType === 'push' && (ev.commitCount ?? 0) === 0 && CHAT_SKIPS_EMPTY_PUSH(h.type)) return false;
    return ev.branch === undefined || branchFilterAllows(h.branchFilter, ev.branch);
  });
}
