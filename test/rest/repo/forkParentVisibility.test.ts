import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { gql } from '../../helpers/graphql.ts';

// A fork's parent is shown only to viewers who may see the parent (Gitea converts it with the fork's permission).
describe.each(PROVIDERS)('fork parent visibility (%s)', (provider) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('alice');
    await t.createUser('bob');
    expect(
      (await t.request('POST', '/api/v1/user/repos', { headers: basic('alice'), body: { name: 'secret', private: true, auto_init: true } }))
        .statusCode,
    ).toBe(201);
    expect(
      (await t.request('PUT', '/api/v1/repos/alice/secret/collaborators/bob', { headers: basic('alice'), body: { permission: 'read' } }))
        .statusCode,
    ).toBe(204);
    expect((await t.request('POST', '/api/v1/repos/alice/secret/forks', { headers: basic('bob'), body: {} })).statusCode).toBe(202);
  });
  afterAll(() => t.close());

  const parentOf = async () => {
    const rest = (await t.request('GET', '/api/v1/repos/bob/secret', { headers: basic('bob') })).json() as {
      fork: boolean;
      parent?: { full_name: string } | null;
    };
    const graph = await gql<{ repository: { isFork: boolean; parent: { nameWithOwner: string } | null } }>(
      t,
      '{ repository(owner: "bob", name: "secret") { isFork parent { nameWithOwner } } }',
      { headers: basic('bob') },
    );
    return { rest, graph: graph.data?.repository };
  };

  it('shows the parent while the forker may read it, and hides it once they may not', async () => {
    const before = await parentOf();
    expect(before.rest.fork).toBe(true);
    expect(before.rest.parent?.full_name).toBe('alice/secret');
    expect(before.graph).toEqual({ isFork: true, parent: { nameWithOwner: 'alice/secret' } });

    expect((await t.request('DELETE', '/api/v1/repos/alice/secret/collaborators/bob', { headers: basic('alice') })).statusCode).toBe(204);
    const after = await parentOf();
    expect(after.rest.fork).toBe(true);
    expect(after.rest.parent ?? null).toBeNull();
    expect(after.graph).toEqual({ isFork: true, parent: null });
  });

  it("forks follow their base's visibility, down the fork tree", async () => {
    await t.createUser('carol');
    expect(
      (await t.request('POST', '/api/v1/user/repos', { headers: basic('alice'), body: { name: 'open', auto_init: true } })).statusCode,
    ).toBe(201);
    expect((await t.request('POST', '/api/v1/repos/alice/open/forks', { headers: basic('bob'), body: {} })).statusCode).toBe(202);
    expect((await t.request('POST', '/api/v1/repos/bob/open/forks', { headers: basic('carol'), body: {} })).statusCode).toBe(202);
    const privacy = async () =>
      Promise.all(
        ['bob', 'carol'].map(async (u) => (await t.db.repository.findFirstOrThrow({ where: { ownerName: u, name: 'open' } })).isPrivate),
      );
    expect(await privacy()).toEqual([false, false]);
    expect((await t.request('PATCH', '/api/v1/repos/alice/open', { headers: basic('alice'), body: { private: true } })).statusCode).toBe(
      200,
    );
    expect(await privacy()).toEqual([true, true]);
    expect((await t.request('GET', '/api/v1/repos/carol/open')).statusCode).toBe(404);
    expect((await t.request('PATCH', '/api/v1/repos/alice/open', { headers: basic('alice'), body: { private: false } })).statusCode).toBe(
      200,
    );
    expect(await privacy()).toEqual([false, false]);
  });
});
