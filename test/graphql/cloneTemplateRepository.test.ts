// cloneTemplateRepository (GitHub's mutation) calls the same service as REST POST /repos/{o}/{r}/generate.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { mutationError, repoGlobalId } from '../helpers/graphql.ts';

const CLONE = `mutation ($input: CloneTemplateRepositoryInput!) {
  cloneTemplateRepository(input: $input) { clientMutationId repository { nameWithOwner isPrivate description } }
}`;

describe.each(PROVIDERS)('cloneTemplateRepository (%s)', (provider) => {
  let t: TestApp;
  let templateId: string;
  let plainId: string;
  let aliceId: string;
  let bobId: string;
  const alice = basic('ctalice');
  const b64 = (s: string) => Buffer.from(s).toString('base64');

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('ctalice');
    await t.createUser('ctbob');
    for (const body of [
      { name: 'tpl', auto_init: true, template: true, private: true },
      { name: 'plain', auto_init: true },
    ]) {
      const res = await t.request('POST', '/api/v1/user/repos', { headers: alice, body });
      expect(res.statusCode, res.body).toBe(201);
    }
    const files = await t.request('POST', '/api/v1/repos/ctalice/tpl/contents', {
      headers: alice,
      body: {
        message: 'template files',
        files: [
          { operation: 'create', path: 'NAME.txt', content: b64('I am $REPO_NAME of ${REPO_OWNER}\n') },
          { operation: 'create', path: '.gitea/template', content: b64('NAME.txt\n') },
        ],
      },
    });
    expect(files.statusCode, files.body).toBe(201);
    templateId = await repoGlobalId(t, 'ctalice', 'tpl');
    plainId = await repoGlobalId(t, 'ctalice', 'plain');
    const ids = await t.graphql('{ a: user(login: "ctalice") { id } b: user(login: "ctbob") { id } }', {}, alice);
    ({
      a: { id: aliceId },
      b: { id: bobId },
    } = (ids.json() as { data: { a: { id: string }; b: { id: string } } }).data);
  });
  afterAll(async () => t?.close());

  it('creates the repository with the template files expanded', async () => {
    const res = await t.graphql(
      CLONE,
      {
        input: {
          clientMutationId: 'c1',
          repositoryId: templateId,
          ownerId: aliceId,
          name: 'made',
          description: 'new',
          visibility: 'PUBLIC',
        },
      },
      alice,
    );
    expect(res.json()).toEqual({
      data: {
        cloneTemplateRepository: {
          clientMutationId: 'c1',
          repository: { nameWithOwner: 'ctalice/made', isPrivate: false, description: 'new' },
        },
      },
    });
    const file = await t.request('GET', '/api/v1/repos/ctalice/made/raw/NAME.txt', { headers: alice });
    expect(file.body).toBe('I am made of ctalice\n');
    expect((await t.request('GET', '/api/v1/repos/ctalice/made/contents/.gitea%2Ftemplate', { headers: alice })).statusCode).toBe(404);
    const readme = await t.request('GET', '/api/v1/repos/ctalice/made/raw/README.md', { headers: alice });
    expect(readme.body).toContain('# tpl');
  });

  type Change = { visibility?: string; includeAllBranches?: boolean; repositoryId?: 'plain'; ownerId?: 'bob' };
  it.each<[string, Change, string, string | undefined]>([
    ['INTERNAL visibility', { visibility: 'INTERNAL' }, 'VALIDATION', 'visibility'],
    ['all branches', { includeAllBranches: true }, 'VALIDATION', 'includeAllBranches'],
    ['a repository that is no template', { repositoryId: 'plain' }, 'VALIDATION', undefined],
    ["another user's account", { ownerId: 'bob' }, 'PERMISSION_DENIED', undefined],
  ])('refuses %s and creates nothing', async (_what, change, code, field) => {
    const input = {
      repositoryId: change.repositoryId === 'plain' ? plainId : templateId,
      ownerId: change.ownerId === 'bob' ? bobId : aliceId,
      name: 'refused',
      visibility: change.visibility ?? 'PRIVATE',
      ...(change.includeAllBranches ? { includeAllBranches: true } : {}),
    };
    const res = await t.graphql(CLONE, { input }, alice);
    expect(mutationError(res.json() as never, 'cloneTemplateRepository')).toMatchObject({ code, ...(field ? { field } : {}) });
    expect(await t.db.repository.count({ where: { lowerName: 'refused' } })).toBe(0);
  });

  it('a private template is NOT_FOUND to who may not read it', async () => {
    const res = await t.graphql(
      CLONE,
      { input: { repositoryId: templateId, ownerId: bobId, name: 'x', visibility: 'PUBLIC' } },
      basic('ctbob'),
    );
    expect(mutationError(res.json() as never, 'cloneTemplateRepository')).toMatchObject({ code: 'NOT_FOUND', type: 'NOT_FOUND' });
  });
});
