// createRepository with GitHub's input fields (gh repo create): ownerId, visibility, template, homepageUrl,
// hasIssuesEnabled, hasWikiEnabled; GitHub's values Gitea has no place for are refused by name (issue #32).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { mutationError } from '../helpers/graphql.ts';

const CREATE = `mutation ($input: CreateRepositoryInput!) { createRepository(input: $input) { repository { nameWithOwner isPrivate } } }`;

describe.each(PROVIDERS)("createRepository with GitHub's input (%s)", (provider) => {
  let t: TestApp;
  let orgId: string;
  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('alice');
    const org = await t.request('POST', '/api/v1/orgs', { headers: basic('alice'), body: { username: 'acme' } });
    expect(org.statusCode, org.body).toBe(201);
    const res = await t.graphql('{ organization(login: "acme") { id } }', {}, basic('alice'));
    orgId = (res.json() as { data: { organization: { id: string } } }).data.organization.id;
  });
  afterAll(async () => t?.close());

  it('creates in the owner named by ownerId, private by visibility, with the homepage, template flag and units asked for', async () => {
    const res = await t.graphql(
      CREATE,
      {
        input: {
          ownerId: orgId,
          name: 'tool',
          visibility: 'PRIVATE',
          template: true,
          homepageUrl: 'https://tool.example/',
          hasIssuesEnabled: false,
          hasWikiEnabled: true,
        },
      },
      basic('alice'),
    );
    expect(res.json()).toEqual({ data: { createRepository: { repository: { nameWithOwner: 'acme/tool', isPrivate: true } } } });
    const rest = await t.request('GET', '/api/v1/repos/acme/tool', { headers: basic('alice') });
    expect(rest.json()).toMatchObject({
      private: true,
      template: true,
      website: 'https://tool.example/',
      has_issues: false,
      has_wiki: true,
    });
  });

  it.each([
    ['INTERNAL visibility', { name: 'a', visibility: 'INTERNAL' }, 'visibility'],
    ['a team id', { name: 'b', visibility: 'PUBLIC', teamId: 'VGVhbTox' }, 'teamId'],
    ['visibility against isPrivate', { name: 'c', visibility: 'PUBLIC', isPrivate: true }, 'visibility'],
    ['template against isTemplate', { name: 'd', visibility: 'PUBLIC', template: true, isTemplate: false }, 'template'],
  ])('refuses %s, naming the field, and creates nothing', async (_what, input, field) => {
    const res = await t.graphql(CREATE, { input }, basic('alice'));
    expect(mutationError(res.json() as never, 'createRepository')).toMatchObject({ code: 'VALIDATION', field, type: 'UNPROCESSABLE' });
    const rest = await t.request('GET', `/api/v1/repos/alice/${input.name}`, { headers: basic('alice') });
    expect(rest.statusCode).toBe(404);
  });

  it('answers NOT_FOUND for an ownerId that names no account', async () => {
    const res = await t.graphql(
      CREATE,
      { input: { name: 'e', visibility: 'PUBLIC', ownerId: Buffer.from('User:999999').toString('base64') } },
      basic('alice'),
    );
    expect(mutationError(res.json() as never, 'createRepository')).toMatchObject({ code: 'NOT_FOUND' });
  });
});
