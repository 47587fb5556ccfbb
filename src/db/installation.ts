import { createHash, randomUUID } from 'node:crypto';
import type { Db } from './client.ts';

/**
 * Which installation this process serves: the random id in the "Installation" row (written by its migration), the
 * same for every instance and CLI on the database whatever URL each uses to reach it, and different for every other
 * database or schema. What is published outside the process carries it: Redis channels and keys
 * (`namespace`), PostgreSQL advisory locks (`lockClass`).
 */
export interface Installation {
  id: string;
  /** The prefix of this installation's Redis channels and keys: `forgegraph:<id>:`. */
  namespace: string;
  /** The first key of this installation's PostgreSQL advisory locks (32 bits of its id). */
  lockClass: number;
}

/** The installation of `db` (its row is written here if a database somehow lacks it: insert-or-ignore, then read). */
export async function readInstallation(db: Db): Promise<Installation> {
  const read = () => db.$queryRawUnsafe<Array<{ uuid: string }>>('SELECT "uuid" FROM "Installation" WHERE "id" = 1');
  let rows = await read();
  if (!rows[0]) {
    // A hex string of our own making: no quoting needed (and one statement text for both databases).
    const uuid = randomUUID().replaceAll('-', '');
    await db.$executeRawUnsafe(`INSERT INTO "Installation" ("id", "uuid") VALUES (1, '${uuid}') ON CONFLICT DO NOTHING`);
    rows = await read();
  }
  const id = rows[0]!.uuid;
  return { id, namespace: `forgegraph:${id}:`, lockClass: createHash('sha256').update(id).digest().readInt32BE(0) };
}
