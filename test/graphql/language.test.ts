// GraphQL Repository.languages and primaryLanguage on both databases (pushed with the real git client).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { gql } from '../helpers/graphql.ts';
import { PullFixture } from '../helpers/pull.ts';

interface Languages {
  totalCount: number;
  totalSize: number;
  edges: Array<{ size: number; node: { name: string; color: string | null } }>;
}

describe.each(PROVIDERS)('GraphQL repository languages (%s)', (provider) => {
  let t: TestApp;
  let f: PullFixture;

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('alice');
    await t.createUser('outsider');
    f = await PullFixture.start(t);
    await f.createRepo('alice', 'code', { private: true });
    await f.push('alice', 'code', 'alice', 'main', { 'main.go': 'package main\n', 'a.rs': 'fn main() {}\n' });
  });
  afterAll(() => t.close());

  const QUERY = `{ repository(owner: "alice", name: "code") {
    languages(first: 10) { totalCount totalSize edges { size node { name color } } }
    primaryLanguage { name }
  } }`;

  it('languages by size with totalSize and colours; primaryLanguage once computed', async () => {
    const res = await gql<{ repository: { languages: Languages; primaryLanguage: { name: string } | null } }>(t, QUERY, {
      headers: basic('alice'),
    });
    expect(res.errors).toBeUndefined();
    expect(res.data!.repository.languages).toEqual({
      totalCount: 2,
      totalSize: 26,
      edges: [
        { size: 13, node: { name: 'Go', color: '#00ADD8' } },
        { size: 13, node: { name: 'Rust', color: expect.stringMatching(/^#/) } },
      ],
    });
    // primaryLanguage reads the stored statistics, which the languages read above stored.
    const again = await gql<{ repository: { primaryLanguage: { name: string } | null } }>(t, QUERY, { headers: basic('alice') });
    expect(again.data!.repository.primaryLanguage).toEqual({ name: 'Go' });
  });

  it('a private repository is null to outsiders', async () => {
    const res = await gql<{ repository: unknown }>(t, QUERY, { headers: basic('outsider') });
    expect(res.data?.repository ?? null).toBeNull();
  });
});
