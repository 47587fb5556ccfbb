import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';

/**
 * A statement outside a transaction never joins another request's open transaction (src/db/sqliteTransactionGate.ts):
 * on SQLite, Prisma's one connection ran it inside, so it saw uncommitted rows and was undone by the other's
 * rollback. PostgreSQL's connections always kept them apart; both databases must behave the same.
 */
describe.each(PROVIDERS)('statements outside an open transaction (%s)', (provider) => {
  let t: TestApp;
  let a: number;
  let b: number;

  beforeAll(async () => {
    t = await startTestApp(provider);
    a = (await t.createUser('gate-a')).id;
    b = (await t.createUser('gate-b')).id;
  });
  afterAll(() => t.close());

  const location = async (id: number) => (await t.db.user.findUniqueOrThrow({ where: { id }, select: { location: true } })).location;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  /** A transaction that writes `a`'s location, holds for a while, then rolls back; `during` runs meanwhile. */
  async function rolledBackAround<T>(during: () => Promise<T>): Promise<T> {
    let opened!: () => void;
    const isOpen = new Promise<void>((resolve) => (opened = resolve));
    const tx = t.db
      .$transaction(async (db) => {
        await db.user.update({ where: { id: a }, data: { location: 'uncommitted' } });
        opened();
        await sleep(200);
        throw new Error('roll back');
      })
      .catch((err: Error) => err.message);
    await isOpen;
    const result = await during();
    expect(await tx).toBe('roll back');
    return result;
  }

  it('keeps a write made while another transaction is open, when that one rolls back', async () => {
    await rolledBackAround(() => t.db.user.update({ where: { id: b }, data: { location: 'kept' } }));
    expect(await location(b)).toBe('kept');
    expect(await location(a)).toBe('');
  });

  it('never reads what an open transaction has not committed', async () => {
    expect(await rolledBackAround(() => location(a))).toBe('');
  });

  it("lets a transaction's own callback read through the client without waiting for itself", async () => {
    const read = await t.db.$transaction(async (db) => {
      await db.user.update({ where: { id: b }, data: { location: 'inside' } });
      // Not `db`: the client itself, as code called from a transaction may use. It must not wait for the commit.
      return Promise.race([location(a), sleep(5_000).then(() => 'waited for its own transaction')]);
    });
    expect(read).toBe('');
    expect(await location(b)).toBe('inside');
  });
});
