// Repository topics over REST on both databases: Gitea's validation JSON, counts, search, gates.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { basic, startTestApp, tokenAuth, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { addCollaborator } from '../../helpers/fixtures.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';

const as = (viewer: string): Record<string, string> => (viewer === 'anon' ? {} : basic(viewer));

describe.each(PROVIDERS)('REST repository topics (%s)', (provider) => {
  let t: TestApp;
  const users: Record<string, Models.User> = {};

  async function newRepo(owner: string, name: string, isPrivate: boolean): Promise<Models.Repository> {
    const res = await t.request('POST', '/api/v1/user/repos', { headers: as(owner), body: { name, private: isPrivate } });
    expect(res.statusCode, res.body).toBe(201);
    return t.db.repository.findUniqueOrThrow({ where: { id: res.json().id as number } });
  }
  const req = (method: string, viewer: string, url: string, body?: unknown) =>
    t.request(method, `/api/v1/${url}`, { headers: as(viewer), ...(body === undefined ? {} : { body }) });

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const n of ['alice', 'writer', 'outsider']) users[n] = await t.createUser(n);
    const pub = await newRepo('alice', 'pub', false);
    await newRepo('alice', 'second', false);
    await newRepo('alice', 'priv', true);
    await addCollaborator(t, pub, users.writer!, 'write');
  });
  afterAll(() => t.close());

  it('PUT /topics replaces the list (trimmed, lower-cased, deduplicated); GET lists by name; Repository JSON has them', async () => {
    const put = await req('PUT', 'alice', 'repos/alice/pub/topics', { topics: ['Go', ' rust ', 'go', '', 'web.dev'] });
    expect(put.statusCode, put.body).toBe(204);
    const got = await req('GET', 'anon', 'repos/alice/pub/topics');
    expect(got.json()).toEqual({ topics: ['go', 'rust', 'web.dev'] });
    expect(got.headers['x-total-count']).toBe('3');
    expect((await req('GET', 'anon', 'repos/alice/pub/topics?limit=2&page=2')).json()).toEqual({ topics: ['web.dev'] });
    expect((await req('GET', 'anon', 'repos/alice/pub')).json().topics.sort()).toEqual(['go', 'rust', 'web.dev']);
    expect((await req('PUT', 'alice', 'repos/alice/pub/topics', { topics: ['go', 'zig'] })).statusCode).toBe(204);
    expect((await req('GET', 'anon', 'repos/alice/pub/topics')).json()).toEqual({ topics: ['go', 'zig'] });
    const rust = await t.db.topic.findUniqueOrThrow({ where: { name: 'rust' } });
    expect(rust.repoCount).toBe(0);
  });

  it("refuses invalid names with Gitea's 422 JSON (invalidTopics, no url)", async () => {
    const bad = await req('PUT', 'alice', 'repos/alice/pub/topics', { topics: ['ok', '-bad', 'x'.repeat(36), 'a b'] });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toEqual({ invalidTopics: ['-bad', 'x'.repeat(36), 'a b'], message: 'Topic names are invalid' });
    const many = await req('PUT', 'alice', 'repos/alice/pub/topics', { topics: Array.from({ length: 26 }, (_, i) => `t${i}`) });
    expect(many.statusCode).toBe(422);
    expect(many.json()).toEqual({ invalidTopics: null, message: 'Exceeding maximum number of topics per repo' });
    const one = await req('PUT', 'alice', 'repos/alice/pub/topics/Bad_Topic');
    expect(one.statusCode).toBe(422);
    expect(one.json()).toEqual({ invalidTopics: 'bad_topic', message: 'Topic name is invalid' });
    expect((await req('GET', 'anon', 'repos/alice/pub/topics')).json()).toEqual({ topics: ['go', 'zig'] });
  });

  it('PUT and DELETE /topics/{topic}: add once, 25 at most, unknown topic 404; counts follow', async () => {
    expect((await req('PUT', 'alice', 'repos/alice/second/topics/Go')).statusCode).toBe(204);
    expect((await req('PUT', 'alice', 'repos/alice/second/topics/go')).statusCode).toBe(204);
    expect((await t.db.topic.findUniqueOrThrow({ where: { name: 'go' } })).repoCount).toBe(2);
    expect((await req('GET', 'anon', 'repos/alice/second/topics')).json()).toEqual({ topics: ['go'] });
    expectGiteaError(await req('DELETE', 'alice', 'repos/alice/second/topics/nothere'), 404);
    expect((await req('DELETE', 'alice', 'repos/alice/second/topics/GO')).statusCode).toBe(204);
    expect((await t.db.topic.findUniqueOrThrow({ where: { name: 'go' } })).repoCount).toBe(1);
    expect(
      (await req('PUT', 'alice', 'repos/alice/second/topics', { topics: Array.from({ length: 25 }, (_, i) => `n${i}`) })).statusCode,
    ).toBe(204);
    const full = await req('PUT', 'alice', 'repos/alice/second/topics/one-more');
    expect(full.statusCode).toBe(422);
    expect(full.json()).toEqual({ message: 'Exceeding maximum allowed topics per repo.' });
    expect((await req('PUT', 'alice', 'repos/alice/second/topics', {})).statusCode).toBe(204);
    expect((await req('GET', 'anon', 'repos/alice/second/topics')).json()).toEqual({ topics: [] });
  });

  it('gates: writers and anonymous are refused, private repositories are 404, tokens need write:repository', async () => {
    expectGiteaError(await req('PUT', 'writer', 'repos/alice/pub/topics', { topics: ['x'] }), 403);
    expectGiteaError(await req('PUT', 'writer', 'repos/alice/pub/topics/x'), 403);
    expectGiteaError(await req('DELETE', 'writer', 'repos/alice/pub/topics/go'), 403);
    expectGiteaError(await req('PUT', 'anon', 'repos/alice/pub/topics', { topics: ['x'] }), 401);
    expectGiteaError(await req('GET', 'outsider', 'repos/alice/priv/topics'), 404);
    expectGiteaError(await req('PUT', 'outsider', 'repos/alice/priv/topics/x'), 404);
    const read = await t.createToken('alice', ['read:repository']);
    expectGiteaError(await t.request('PUT', '/api/v1/repos/alice/pub/topics/x', { headers: tokenAuth(read) }), 403, /write:repository/);
    const write = await t.createToken('alice', ['write:repository']);
    expect((await t.request('PUT', '/api/v1/repos/alice/priv/topics/secret-topic', { headers: tokenAuth(write) })).statusCode).toBe(204);
    expect((await t.request('GET', '/api/v1/repos/alice/priv/topics', { headers: tokenAuth(read) })).json()).toEqual({
      topics: ['secret-topic'],
    });
  });

  it('GET /topics/search: name contains q, most used first, TopicResponse JSON', async () => {
    await req('PUT', 'alice', 'repos/alice/second/topics', { topics: ['zig', 'zigzag'] });
    const res = await req('GET', 'anon', 'topics/search?q=zig');
    expect(res.statusCode).toBe(200);
    const topics = res.json().topics as Array<Record<string, unknown>>;
    expect(topics.map((x) => [x.topic_name, x.repo_count])).toEqual([
      ['zig', 2],
      ['zigzag', 1],
    ]);
    expect(Object.keys(topics[0]!)).toEqual(['id', 'topic_name', 'created', 'updated', 'repo_count']);
    expect(res.headers['x-total-count']).toBe('2');
    expect((await req('GET', 'anon', 'topics/search?q=nothing-like-this')).json()).toEqual({ topics: [] });
  });

  it("deleting a repository takes it out of its topics' counts", async () => {
    await newRepo('alice', 'doomed', false);
    expect((await req('PUT', 'alice', 'repos/alice/doomed/topics', { topics: ['zigzag'] })).statusCode).toBe(204);
    expect((await t.db.topic.findUniqueOrThrow({ where: { name: 'zigzag' } })).repoCount).toBe(2);
    expect((await req('DELETE', 'alice', 'repos/alice/doomed')).statusCode).toBe(204);
    expect((await t.db.topic.findUniqueOrThrow({ where: { name: 'zigzag' } })).repoCount).toBe(1);
  });
});
