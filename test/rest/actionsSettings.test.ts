import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretsOfTask } from '../../src/services/actions/actionSecrets.ts';
import { decryptSecret } from '../../src/services/actions/secretCipher.ts';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { addCollaborator } from '../helpers/fixtures.ts';
import { createRepoFixture } from '../githttp/gitClient.ts';

/** Actions secrets and variables at repository, organization and user level (Gitea api_repo_secrets/variables tests). */
describe.each(PROVIDERS)('actions secrets and variables (%s)', (provider) => {
  let t: TestApp;
  const as = (u: string, body?: unknown) => ({ headers: basic(u), ...(body === undefined ? {} : { body }) });

  beforeAll(async () => {
    t = await startTestApp(provider);
    const owner = await t.createUser('owner');
    await t.createUser('writer');
    await t.createUser('outsider');
    const repo = await createRepoFixture(t, owner, 'app', { isPrivate: true });
    await addCollaborator(t, repo, { name: 'writer' }, 'write');
    expect((await t.request('POST', '/api/v1/orgs', as('owner', { username: 'acme' }))).statusCode).toBe(201);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('repository secrets: created 201, updated 204, listed without values, deleted; encrypted at rest', async () => {
    const url = '/api/v1/repos/owner/app/actions/secrets';
    expect((await t.request('PUT', `${url}/deploy_key`, as('owner', { data: 'v1', description: 'd' }))).statusCode).toBe(201);
    expect((await t.request('PUT', `${url}/DEPLOY_KEY`, as('owner', { data: 'line1\r\nline2' }))).statusCode).toBe(204);
    const row = await t.db.actionSecret.findFirstOrThrow({ where: { name: 'DEPLOY_KEY' } });
    expect(row.data).not.toContain('line1');
    expect(decryptSecret(t.config.secretKey, row.data)).toBe('line1\nline2');

    const list = await t.request('GET', url, as('owner'));
    expect(list.statusCode).toBe(200);
    expect(list.headers['x-total-count']).toBe('1');
    const [secret] = list.json<Array<Record<string, unknown>>>();
    expect(Object.keys(secret ?? {}).sort()).toEqual(['created_at', 'description', 'name']);
    expect(secret).toMatchObject({ name: 'DEPLOY_KEY', description: '' });

    for (const bad of ['1ABC', 'GITEA_X', 'github_token', 'A-B']) {
      const res = await t.request('PUT', `${url}/${bad}`, as('owner', { data: 'x' }));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ message: 'invalid secret name' });
    }
    const empty = await t.request('PUT', `${url}/OK`, as('owner', { data: '' }));
    expect(empty.statusCode).toBe(422);
    expect(empty.json<{ message: string }>().message).toContain('[Data]: Required');

    // Writers are not repository admins; outsiders do not see the private repository.
    expect((await t.request('GET', url, as('writer'))).statusCode).toBe(403);
    expect((await t.request('PUT', `${url}/X`, as('writer', { data: 'x' }))).statusCode).toBe(403);
    expect((await t.request('GET', url, as('outsider'))).statusCode).toBe(404);
    expect((await t.request('GET', url)).statusCode).toBe(401);

    expect((await t.request('DELETE', `${url}/deploy_key`, as('owner'))).statusCode).toBe(204);
    const gone = await t.request('DELETE', `${url}/deploy_key`, as('owner'));
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ message: 'secret not found' });
  });

  it('organization and user secrets: owners and the user only', async () => {
    expect((await t.request('PUT', '/api/v1/orgs/acme/actions/secrets/ORG_ONE', as('owner', { data: 'o' }))).statusCode).toBe(201);
    expect((await t.request('PUT', '/api/v1/orgs/acme/actions/secrets/ORG_ONE', as('outsider', { data: 'o' }))).statusCode).toBe(403);
    expect((await t.request('GET', '/api/v1/orgs/acme/actions/secrets', as('owner'))).json()).toMatchObject([{ name: 'ORG_ONE' }]);
    expect((await t.request('PUT', '/api/v1/user/actions/secrets/MINE', as('outsider', { data: 'm' }))).statusCode).toBe(201);
    expect((await t.request('DELETE', '/api/v1/user/actions/secrets/MINE', as('owner'))).statusCode).toBe(404);
    expect((await t.request('DELETE', '/api/v1/user/actions/secrets/MINE', as('outsider'))).statusCode).toBe(204);
  });

  it('variables: create (409 when taken), get, rename, list and delete at each level', async () => {
    const url = '/api/v1/repos/owner/app/actions/variables';
    expect((await t.request('POST', `${url}/stage`, as('owner', { value: 'a\r\nb', description: 'where' }))).statusCode).toBe(201);
    const taken = await t.request('POST', `${url}/STAGE`, as('owner', { value: 'x' }));
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ message: 'variable name STAGE already exists' });
    const repo = await t.db.repository.findFirstOrThrow({ where: { name: 'app' } });
    expect((await t.request('GET', `${url}/stage`, as('owner'))).json()).toEqual({
      owner_id: 0,
      repo_id: repo.id,
      name: 'STAGE',
      data: 'a\nb',
      description: 'where',
    });
    expect((await t.request('POST', `${url}/bad-name`, as('owner', { value: 'x' }))).statusCode).toBe(400);
    expect((await t.request('POST', `${url}/EMPTY`, as('owner', { value: '' }))).statusCode).toBe(422);
    expect((await t.request('PUT', `${url}/missing`, as('owner', { value: 'x' }))).statusCode).toBe(404);
    expect((await t.request('PUT', `${url}/stage`, as('owner', { name: 'env', value: 'prod' }))).statusCode).toBe(204);
    expect((await t.request('GET', `${url}/stage`, as('owner'))).statusCode).toBe(404);
    const list = await t.request('GET', url, as('owner'));
    expect(list.headers['x-total-count']).toBe('1');
    expect(list.json()).toMatchObject([{ name: 'ENV', data: 'prod', description: '' }]);
    expect((await t.request('GET', url, as('writer'))).statusCode).toBe(403);
    expect((await t.request('DELETE', `${url}/env`, as('owner'))).statusCode).toBe(204);
    expect((await t.request('DELETE', `${url}/env`, as('owner'))).statusCode).toBe(404);

    expect((await t.request('POST', '/api/v1/orgs/acme/actions/variables/REGION', as('owner', { value: 'eu' }))).statusCode).toBe(201);
    expect((await t.request('GET', '/api/v1/orgs/acme/actions/variables/REGION', as('outsider'))).statusCode).toBe(403);
    expect((await t.request('POST', '/api/v1/user/actions/variables/MINE', as('outsider', { value: 'u' }))).statusCode).toBe(201);
    const mine = await t.request('GET', '/api/v1/user/actions/variables', as('outsider'));
    expect(mine.json()).toMatchObject([{ name: 'MINE', data: 'u', repo_id: 0 }]);
    expect((await t.request('GET', '/api/v1/user/actions/variables', as('owner'))).json()).toEqual([]);
  });

  it('a token needs the scope of the level', async () => {
    const readOnly = await t.createToken('owner', ['read:repository']);
    const headers = { authorization: `token ${readOnly}` };
    expect((await t.request('GET', '/api/v1/repos/owner/app/actions/variables', { headers })).statusCode).toBe(200);
    expect((await t.request('POST', '/api/v1/repos/owner/app/actions/variables/X', { headers, body: { value: 'x' } })).statusCode).toBe(
      403,
    );
    expect((await t.request('GET', '/api/v1/orgs/acme/actions/variables', { headers })).statusCode).toBe(403);
  });

  it("a fork's pull request gets only the task token, except pull_request_target", async () => {
    await t.request('PUT', '/api/v1/repos/owner/app/actions/secrets/FORK_SAFE', as('owner', { data: 'hidden' }));
    const repo = await t.db.repository.findFirstOrThrow({ where: { name: 'app' } });
    const run = { repoId: repo.id, ownerId: repo.ownerId, isForkPullRequest: true, triggerEvent: 'pull_request' };
    expect(await secretsOfTask(t.system, run, 'tok')).toEqual({ GITHUB_TOKEN: 'tok', GITEA_TOKEN: 'tok' });
    const target = await secretsOfTask(t.system, { ...run, triggerEvent: 'pull_request_target' }, 'tok');
    expect(target).toMatchObject({ GITEA_TOKEN: 'tok', FORK_SAFE: 'hidden' });
  });
});
