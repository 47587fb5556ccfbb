import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';

/** /admin/users/{username}/badges: site admins list, give and take badges (Gitea has no API creating badges). */
describe.each(PROVIDERS)('admin user badges (%s)', (provider) => {
  let t: TestApp;
  const url = '/api/v1/admin/users/alice/badges';
  const as = (who: string, body?: unknown) => ({ headers: basic(who), ...(body === undefined ? {} : { body }) });
  const slugs = async () => (await t.request('GET', url, as('root'))).json<Array<{ slug: string }>>().map((b) => b.slug);

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('root', { admin: true });
    await t.createUser('alice');
    await t.createUser('bob');
    await t.db.badge.createMany({
      data: [
        { slug: 'early', description: 'Early adopter', imageUrl: 'https://example.com/early.png' },
        { slug: 'helper', description: 'Helped others' },
        { slug: 'unused' },
      ],
    });
  });
  afterAll(() => t?.close());

  it('gives badges by slug, lists them with X-Total-Count, takes them away', async () => {
    const empty = await t.request('GET', url, as('root'));
    expect([empty.statusCode, empty.json(), empty.headers['x-total-count']]).toEqual([200, [], '0']);

    expect((await t.request('POST', url, as('root', { badge_slugs: ['early', 'helper'] }))).statusCode).toBe(204);
    expect((await t.request('POST', url, as('root', { badge_slugs: ['early'] }))).statusCode).toBe(204);
    const listed = await t.request('GET', url, as('root'));
    expect(listed.headers['x-total-count']).toBe('2');
    expect(listed.json()).toEqual([
      { id: expect.any(Number), slug: 'early', description: 'Early adopter', image_url: 'https://example.com/early.png' },
      { id: expect.any(Number), slug: 'helper', description: 'Helped others', image_url: '' },
    ]);
    expect((await t.request('GET', '/api/v1/admin/users/bob/badges', as('root'))).json()).toEqual([]);

    expectGiteaError(
      await t.request('POST', url, as('root', { badge_slugs: ['unused', 'nope'] })),
      422,
      'badge does not exist [slug: nope]',
    );
    expect(await slugs()).toEqual(['early', 'helper']);

    expect((await t.request('DELETE', url, as('root', { badge_slugs: ['early', 'nope'] }))).statusCode).toBe(204);
    expect(await slugs()).toEqual(['helper']);
  });

  it('is for site admins only; an unknown user is 404', async () => {
    expectGiteaError(await t.request('GET', url), 401);
    expectGiteaError(await t.request('GET', url, as('bob')), 403);
    expectGiteaError(await t.request('POST', url, as('bob', { badge_slugs: ['unused'] })), 403);
    expectGiteaError(await t.request('DELETE', url, as('alice', { badge_slugs: ['helper'] })), 403);
    expectGiteaError(await t.request('GET', '/api/v1/admin/users/nobody/badges', as('root')), 404);
    expectGiteaError(await t.request('POST', url, as('root', { badge_slugs: 'early' })), 422);
    expect(await slugs()).toEqual(['helper']);
  });
});
