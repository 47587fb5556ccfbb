// GraphQL topics: Repository.repositoryTopics and updateTopics on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { gql, mutationError, repoGlobalId } from '../helpers/graphql.ts';

const UPDATE = `mutation($id: ID!, $names: [String!]!) {
  updateTopics(input: { repositoryId: $id, topicNames: $names }) {
    repository { repositoryTopics(first: 10) { totalCount nodes { topic { name repositoryCount } } } }
  }
}`;

interface Topics {
  totalCount: number;
  nodes: Array<{ topic: { name: string; repositoryCount: number } }>;
}

describe.each(PROVIDERS)('GraphQL topics (%s)', (provider) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('alice');
    await t.createUser('bob');
    for (const [name, priv] of [
      ['pub', false],
      ['priv', true],
    ] as const) {
      await t.request('POST', '/api/v1/user/repos', { headers: basic('alice'), body: { name, private: priv } });
    }
  });
  afterAll(() => t.close());

  it('updateTopics replaces the topics; repositoryTopics lists them by name', async () => {
    const res = await gql<{ updateTopics: { repository: { repositoryTopics: Topics } } }>(t, UPDATE, {
      variables: { id: await repoGlobalId(t, 'alice', 'pub'), names: ['Web', 'api', 'web'] },
      headers: basic('alice'),
    });
    expect(res.errors).toBeUndefined();
    expect(res.data!.updateTopics.repository.repositoryTopics).toEqual({
      totalCount: 2,
      nodes: [{ topic: { name: 'api', repositoryCount: 1 } }, { topic: { name: 'web', repositoryCount: 1 } }],
    });
    const q = await gql<{ repository: { repositoryTopics: Topics } }>(
      t,
      '{ repository(owner: "alice", name: "pub") { repositoryTopics(first: 1) { totalCount nodes { topic { name } } } } }',
    );
    expect(q.data!.repository.repositoryTopics).toEqual({ totalCount: 2, nodes: [{ topic: { name: 'api' } }] });
  });

  it('invalid names, non-admins and invisible repositories are refused', async () => {
    const bad = await gql<{ updateTopics: unknown }>(t, UPDATE, {
      variables: { id: await repoGlobalId(t, 'alice', 'pub'), names: ['-x'] },
      headers: basic('alice'),
    });
    expect(mutationError(bad, 'updateTopics')).toMatchObject({ code: 'VALIDATION', message: 'Topic names are invalid' });
    const denied = await gql<{ updateTopics: unknown }>(t, UPDATE, {
      variables: { id: await repoGlobalId(t, 'alice', 'pub'), names: ['x'] },
      headers: basic('bob'),
    });
    expect(mutationError(denied, 'updateTopics')?.code).toBe('PERMISSION_DENIED');
    const hidden = await gql<{ updateTopics: unknown }>(t, UPDATE, {
      variables: { id: await repoGlobalId(t, 'alice', 'priv'), names: ['x'] },
      headers: basic('bob'),
    });
    expect(mutationError(hidden, 'updateTopics')?.code).toBe('NOT_FOUND');
    const topics = await gql<{ repository: { repositoryTopics: Topics } }>(
      t,
      '{ repository(owner: "alice", name: "priv") { repositoryTopics(first: 10) { totalCount nodes { topic { name } } } } }',
      { headers: basic('alice') },
    );
    expect(topics.data!.repository.repositoryTopics.totalCount).toBe(0);
  });
});
