import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withRetry } from '../../src/services/dbErrors.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';

/**
 * withRetry (src/services/dbErrors.ts) runs a transaction again when the database says it lost a race, and never
 * when the error is the request's own: the errors here are the real ones of each database.
 */
describe.each(PROVIDERS)('withRetry (%s)', (provider) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('taken');
  });
  afterAll(() => t.close());

  it('runs a transaction again after a unique race, and returns what the next attempt did', async () => {
    let attempts = 0;
    const user = await withRetry(() =>
      t.db.$transaction(async (tx) => {
        attempts++;
        const name = attempts === 1 ? 'taken' : 'free';
        return tx.user.create({ data: { name, lowerName: name, email: `${name}@example.com` } });
      }),
    );
    expect(attempts).toBe(2);
    expect(user.lowerName).toBe('free');
    expect(await t.db.user.count({ where: { lowerName: 'taken' } })).toBe(1);
  });

  it('does not run again a transaction that failed for its own reason', async () => {
    let attempts = 0;
    await expect(
      withRetry(() =>
        t.db.$transaction(async (tx) => {
          attempts++;
          return tx.user.update({ where: { id: 987_654 }, data: { fullName: 'x' } });
        }),
      ),
    ).rejects.toMatchObject({ code: 'P2025' });
    expect(attempts).toBe(1);
  });
});
