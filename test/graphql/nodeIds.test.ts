// Global ids that name nothing of ours (not base64, an unknown type, a type that is not a Node): GitHub's
// NOT_FOUND at the field that took the id, the rest of the request answered (issue #32).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { createRepo } from '../helpers/fixtures.ts';

const b64 = (s: string) => Buffer.from(s).toString('base64');

describe.each(PROVIDERS)('global ids that name nothing (%s)', (provider) => {
  let t: TestApp;
  let repoId: string;
  beforeAll(async () => {
    t = await startTestApp(provider);
    const alice = await t.createUser('alice');
    await createRepo(t, alice, 'demo', { autoInit: true });
    const res = await t.graphql('{ repository(owner: "alice", name: "demo") { id } }', {}, basic('alice'));
    repoId = (res.json() as { data: { repository: { id: string } } }).data.repository.id;
  });
  afterAll(async () => t?.close());

  it.each([
    ['not base64', 'not-an-id'],
    ['base64 without a type', b64('not-an-id')],
    ['an unknown type', b64('Foo:1')],
    ['a type that is not a Node', b64('GitActor:1')],
  ])('node(id:) with %s is NOT_FOUND at its path, beside the fields that resolve', async (_name, id) => {
    const res = await t.graphql(`query ($id: ID!) { viewer { login } node(id: $id) { id } }`, { id }, basic('alice'));
    expect(res.statusCode).toBe(200);
    const body = res.json() as { data: unknown; errors: Array<Record<string, unknown>> };
    expect(body.data).toEqual({ viewer: { login: 'alice' }, node: null });
    expect(body.errors).toEqual([
      expect.objectContaining({
        type: 'NOT_FOUND',
        path: ['node'],
        message: `Could not resolve to a node with the global id of '${id}'`,
        extensions: { code: 'NOT_FOUND' },
      }),
    ]);
  });

  it('nodes(ids:) answers null in the place of an id that names nothing', async () => {
    const res = await t.graphql(
      `query ($ids: [ID!]!) { nodes(ids: $ids) { id } }`,
      { ids: ['not-an-id', repoId, b64('Foo:1')] },
      basic('alice'),
    );
    expect(res.json()).toEqual({ data: { nodes: [null, { id: repoId }, null] } });
  });

  it('a mutation given an id that names nothing is NOT_FOUND at the mutation', async () => {
    const res = await t.graphql(`mutation { closeIssue(input: { issueId: "not-an-id" }) { issue { id } } }`, {}, basic('alice'));
    const body = res.json() as { data: unknown; errors: Array<Record<string, unknown>> };
    expect(body.data).toEqual({ closeIssue: null });
    expect(body.errors[0]).toMatchObject({ type: 'NOT_FOUND', path: ['closeIssue'] });
  });
});
