// Gitea's `gitea-actions` user (models/user/user_system.go NewActionsUser): the account a running task's token
// signs in as (models/actions/task.go GetRunningTaskByToken), id -2. Gitea keeps it virtual; here it gets a row
// (a BOT, which no user list shows) the first time a task token is used, so that what a job writes (commit statuses,
// comments, releases) can name it as author.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Db, Models } from '../db/client.ts';
import { systemUserRow } from '../db/systemUser.ts';
import type { ActionsTaskGrant } from './authInfo.ts';

export const ACTIONS_USER_ID = -2;
export const ACTIONS_USER_NAME = 'gitea-actions';

/** The user as Gitea describes it. */
function actionsUser(): Models.User {
  return systemUserRow({
    id: ACTIONS_USER_ID,
    type: 'BOT',
    name: ACTIONS_USER_NAME,
    fullName: 'Gitea Actions',
    email: 'teabot@gitea.io',
    loginName: ACTIONS_USER_NAME,
    isActive: true,
    prohibitLogin: false,
    allowCreateOrganization: true,
    keepActivityPrivate: false,
    theme: 'gitea-auto',
  });
}

/**
 * The pusher a push records: none for the `gitea-actions` user, so a job's push emits no push event and (as in
 * Gitea, which starts no runs for that user) cannot start workflows in a loop.
 */
export function recordedPusherId(user: Pick<Models.User, 'id'> | null): number | null {
  return user && user.id !== ACTIONS_USER_ID ? user.id : null;
}

const rows = new WeakMap<Db, Promise<Models.User>>();

/** The user's row, created on first use (once per process and database; a concurrent creation elsewhere is fine). */
export function actionsUserRow(db: Db): Promise<Models.User> {
  let row = rows.get(db);
  if (!row) {
    row = (async () => {
      const found = await db.user.findUnique({ where: { id: ACTIONS_USER_ID } });
      if (found) return found;
      try {
        return await db.user.create({ data: actionsUser() });
      } catch (err) {
        const raced = await db.user.findUnique({ where: { id: ACTIONS_USER_ID } });
        if (raced) return raced;
        throw err;
      }
    })();
    rows.set(db, row);
    row.catch(() => rows.delete(db));
  }
  return row.then((u) => ({ ...u }));
}

/** A task token's stored form: sha256 of the salt, a NUL and the token (the runner protocol's salted tokens). */
function saltedHash(token: string, salt: string): Buffer {
  return createHash('sha256').update(`${salt}\0${token}`).digest();
}

/**
 * The running task whose token this is (Gitea GetRunningTaskByToken: candidates by the token's last eight
 * characters, then the salted hash in constant time). A task that stopped no longer signs anyone in.
 */
export async function findRunningTask(db: Db, token: string): Promise<ActionsTaskGrant | null> {
  if (!/^[0-9a-f]{40}$/.test(token)) return null;
  const candidates = await db.actionTask.findMany({
    where: { tokenLastEight: token.slice(-8), status: 'RUNNING' },
    select: { id: true, repoId: true, isForkPullRequest: true, tokenHash: true, tokenSalt: true },
  });
  for (const task of candidates) {
    const stored = Buffer.from(task.tokenHash ?? '', 'hex');
    const presented = saltedHash(token, task.tokenSalt);
    if (stored.length === presented.length && timingSafeEqual(stored, presented)) {
      return { taskId: task.id, repoId: task.repoId, isForkPullRequest: task.isForkPullRequest };
    }
  }
  return null;
}
