// Same-named leaf fields of different types on object types that never meet validate, as on GitHub; every other
// overlap is still refused (src/graphql/exclusiveFieldTypes.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { createRepo } from '../helpers/fixtures.ts';
import { gql } from '../helpers/graphql.ts';

describe.each(PROVIDERS)('overlapping fields on mutually exclusive types (%s)', (provider) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(provider);
    const alice = await t.createUser('alice');
    await createRepo(t, alice, 'demo', { autoInit: true });
    expect(
      (await t.request('POST', '/api/v1/repos/alice/demo/issues', { headers: basic('alice'), body: { title: 'one' } })).statusCode,
    ).toBe(201);
  });
  afterAll(() => t.close());

  const ask = (selection: string) =>
    gql<{ repository: { issueOrPullRequest: Record<string, unknown> | null } }>(
      t,
      `{ repository(owner: "alice", name: "demo") { issueOrPullRequest(number: 1) { __typename ${selection} } } }`,
      { headers: basic('alice') },
    );

  it("gh's issue query: state as IssueState on Issue and PullRequestState on PullRequest", async () => {
    const res = await ask('... on Issue { state number } ... on PullRequest { state number }');
    expect(res.errors).toBeUndefined();
    expect(res.data?.repository.issueOrPullRequest).toEqual({ __typename: 'Issue', state: 'OPEN', number: 1 });
  });

  it('still refuses two different fields under one name on the same type', async () => {
    const res = await ask('... on Issue { state } ... on Issue { state: title }');
    expect(res.errors?.map((e) => e.message)).toEqual([
      'Fields "state" conflict because "state" and "title" are different fields. Use different aliases on the fields to fetch both if this was intentional.',
    ]);
  });

  it('still refuses different leaf types under one name where both parents can apply', async () => {
    const res = await ask('... on Issue { n: number } ... on Node { n: id }');
    expect(res.errors?.[0]?.message).toMatch(/^Fields "n" conflict because/);
  });
});
