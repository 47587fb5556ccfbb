import { expect } from 'vitest';
import { basic, type TestApp } from './app.ts';
import { PullFixture } from './pull.ts';

/** The viewers every read-policy test looks through. */
export type Viewer = 'anonymous' | 'outsider' | 'restricted' | 'reader' | 'coder' | 'issuer' | 'publicOnly';
export const VIEWERS: Viewer[] = ['anonymous', 'outsider', 'restricted', 'reader', 'coder', 'issuer', 'publicOnly'];

/**
 * One world for read-policy tests, built through the REST API as its users would build it:
 * - `acorg` (public) owned by `acowner`, with repositories `pub` (public) and `secret` (private), both with a
 *   labelled issue, a milestone, a pull request and a collaborator (`accollab`);
 * - teams of `acorg`: `readers` (public; code, issues and pulls read on `secret`; member `acreader`),
 *   `coders` (private; code read only on `secret`; member `accoder`), `issuers` (private; issues read only on
 *   `secret`; member `acissuer`), `hidden` (private, no members, with a
 *   description; on both repositories; asked to review the pull request of `pub`);
 * - `aclim` (limited) with a public repository `open`; `aclimuser`, a user with limited visibility;
 * - viewers: anonymous, `acout` (signed in, no grants), `acrestricted` (restricted, no grants), `acreader`,
 *   `accoder`, `acissuer`, and `acreader` with a public-only token.
 */
export interface AccessFixture {
  headers: Record<Viewer, Record<string, string>>;
  /** Database ids: repositories (`acorg/pub`…), teams (`team:readers`…), issues (`issue:acorg/secret#1`…). */
  ids: Record<string, number>;
  pulls: PullFixture;
}

/** Calls the REST API as `user` and expects success; returns the JSON body. */
async function call(t: TestApp, user: string, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await t.request(method, `/api/v1${path}`, { headers: basic(user), ...(body === undefined ? {} : { body }) });
  expect(res.statusCode, `${method} ${path}: ${res.body}`).toBeLessThan(300);
  return res.body ? (res.json() as Record<string, unknown>) : {};
}

/** Builds the world described on AccessFixture. */
export async function buildAccessFixture(t: TestApp): Promise<AccessFixture> {
  for (const name of ['acowner', 'acreader', 'accoder', 'acissuer', 'acout', 'accollab']) await t.createUser(name);
  await t.createUser('acrestricted', { restricted: true });
  await t.createUser('aclimuser', { visibility: 'LIMITED' });
  const ids: Record<string, number> = {};
  const as = (user: string, method: string, path: string, body?: unknown) => call(t, user, method, path, body);

  await as('acowner', 'POST', '/orgs', { username: 'acorg', visibility: 'public' });
  await as('acowner', 'POST', '/orgs', { username: 'aclim', visibility: 'limited' });
  const pulls = await PullFixture.start(t);
  for (const [owner, name, isPrivate] of [
    ['acorg', 'pub', false],
    ['acorg', 'secret', true],
    ['aclim', 'open', false],
  ] as const) {
    ids[`${owner}/${name}`] = (await pulls.createRepo(owner, name, { org: true, as: 'acowner', private: isPrivate })).id;
  }

  const teams = [
    { name: 'readers', visibility: 'public', units_map: { 'repo.code': 'read', 'repo.issues': 'read', 'repo.pulls': 'read' } },
    { name: 'coders', visibility: 'private', units_map: { 'repo.code': 'read' } },
    { name: 'issuers', visibility: 'private', units_map: { 'repo.issues': 'read' } },
    { name: 'hidden', visibility: 'private', description: 'classified', units_map: { 'repo.code': 'read', 'repo.pulls': 'read' } },
  ];
  for (const team of teams) {
    const created = await as('acowner', 'POST', '/orgs/acorg/teams', { ...team, includes_all_repositories: false });
    ids[`team:${team.name}`] = created.id as number;
    await as('acowner', 'PUT', `/teams/${String(created.id)}/repos/acorg/secret`);
  }
  await as('acowner', 'PUT', `/teams/${ids['team:hidden']}/repos/acorg/pub`);
  await as('acowner', 'PUT', `/teams/${ids['team:readers']}/members/acreader`);
  await as('acowner', 'PUT', `/teams/${ids['team:coders']}/members/accoder`);
  await as('acowner', 'PUT', `/teams/${ids['team:issuers']}/members/acissuer`);

  const orgLabel = await as('acowner', 'POST', '/orgs/acorg/labels', { name: 'orglabel', color: '#00aabb' });
  for (const repo of ['pub', 'secret']) {
    const full = `acorg/${repo}`;
    await as('acowner', 'PUT', `/repos/${full}/collaborators/accollab`, { permission: 'write' });
    const label = await as('acowner', 'POST', `/repos/${full}/labels`, { name: `${repo}-bug`, color: '#ff0000' });
    const milestone = await as('acowner', 'POST', `/repos/${full}/milestones`, { title: `${repo} milestone` });
    const issue = await as('acowner', 'POST', `/repos/${full}/issues`, {
      title: `${repo} issue`,
      labels: [label.id, orgLabel.id],
      milestone: milestone.id,
    });
    ids[`issue:${full}#1`] = issue.id as number;
    ids[`milestone:${full}`] = milestone.id as number;
    await pulls.push('acorg', repo, 'acowner', 'feature', { [`${repo}.txt`]: repo });
    const { json } = await pulls.open('acorg', repo, 'acowner', { head: 'feature', base: 'main', title: `${repo} pull` });
    ids[`pull:${full}`] = json.id as number;
  }
  await as('acowner', 'POST', '/repos/acorg/pub/pulls/2/requested_reviewers', { team_reviewers: ['hidden', 'readers'] });

  const publicOnly = await t.createToken('acreader', ['public-only', 'read:repository', 'read:issue', 'read:organization', 'read:user']);
  return {
    headers: {
      anonymous: {},
      outsider: basic('acout'),
      restricted: basic('acrestricted'),
      reader: basic('acreader'),
      coder: basic('accoder'),
      issuer: basic('acissuer'),
      publicOnly: { authorization: `token ${publicOnly}` },
    },
    ids,
    pulls,
  };
}

/** A global id (Pothos's encoding: base64 of `Type:id`). */
export const gid = (type: string, id: number): string => Buffer.from(`${type}:${id}`).toString('base64');
