import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { expectExactLabelCounters } from '../../helpers/labelCounters.ts';
import { createOrgAs } from '../../helpers/org.ts';

/**
 * A label's counters (num_issues, num_closed_issues) follow every change of one issue by an increment, not a
 * recount of the label's links (bench/labelCounterScale.ts: a recount reads every issue of the label), and stay
 * exact through creation (open and closed), label changes on open and closed issues, edits that change labels and
 * state together, closing by another path, and deletion. Changes that touch many issues at once recount: a
 * repository deleted from, or transferred out of, the organization whose labels its issues carried.
 */
describe.each(PROVIDERS)('label counters (%s)', (provider) => {
  let t: TestApp;
  let owner: Models.User;
  const h = () => basic('owner');
  const labelIds: Record<string, number> = {};

  const expectExact = () => expectExactLabelCounters(t);
  const counters = async (name: string) =>
    t.db.label.findFirstOrThrow({ where: { id: labelIds[name] }, select: { numIssues: true, numClosedIssues: true } });
  async function call(method: string, url: string, body?: unknown, status = 200): Promise<Record<string, unknown>> {
    const res = await t.request(method, url, { headers: h(), ...(body === undefined ? {} : { body }) });
    expect(res.statusCode, res.body).toBe(status);
    return res.body ? (res.json() as Record<string, unknown>) : {};
  }

  beforeAll(async () => {
    t = await startTestApp(provider);
    owner = await t.createUser('owner');
    await call('POST', '/api/v1/user/repos', { name: 'r' }, 201);
    for (const name of ['bug', 'ui', 'docs']) {
      labelIds[name] = (await call('POST', '/api/v1/repos/owner/r/labels', { name, color: '#ff0000' }, 201)).id as number;
    }
  });
  afterAll(() => t.close());

  it('shifts the counters of the labels one issue change touches, without reading their other issues', async () => {
    await call('POST', '/api/v1/repos/owner/r/issues', { title: 'open', labels: [labelIds.bug, labelIds.ui] }, 201);
    await call('POST', '/api/v1/repos/owner/r/issues', { title: 'closed', labels: [labelIds.bug], closed: true }, 201);
    expect(await counters('bug')).toEqual({ numIssues: 2, numClosedIssues: 1 });
    await expectExact();

    t.queries.length = 0;
    await call('POST', '/api/v1/repos/owner/r/issues/2/labels', { labels: [labelIds.docs] });
    const updates = t.queries.filter((q) => /UPDATE "Label"/.test(q));
    expect(updates).toHaveLength(1);
    expect(updates[0]).not.toMatch(/IssueLabel|COUNT/);
    expect(await counters('docs')).toEqual({ numIssues: 1, numClosedIssues: 1 });

    await call('DELETE', `/api/v1/repos/owner/r/issues/2/labels/${labelIds.bug}`, undefined, 204);
    expect(await counters('bug')).toEqual({ numIssues: 1, numClosedIssues: 0 });
    // Two labels removed and one added: one statement for the three.
    t.queries.length = 0;
    await call('PUT', '/api/v1/repos/owner/r/issues/1/labels', { labels: [labelIds.docs] });
    expect(t.queries.filter((q) => /UPDATE "Label"/.test(q))).toHaveLength(1);
    await expectExact();
  });

  it('keeps them exact when one edit changes labels and state, and when the issue closes, reopens and goes', async () => {
    await call('POST', '/api/v1/repos/owner/r/issues', { title: 'both', labels: [labelIds.ui] }, 201);
    await call('PATCH', '/api/v1/repos/owner/r/issues/3', { state: 'closed' }, 201);
    expect(await counters('ui')).toEqual({ numIssues: 1, numClosedIssues: 1 });
    await call('PATCH', '/api/v1/repos/owner/r/issues/3', { state: 'open' }, 201);
    await expectExact();
    // Labels and state in one edit (the graph's updateIssue), both ways: closing while ui goes and bug comes, then
    // reopening while bug goes and docs comes.
    const ids = await t.graphql(
      '{ repository(owner: "owner", name: "r") { issue(number: 3) { id } labels(first: 10) { nodes { id name } } } }',
      {},
      h(),
    );
    const repo = ids.json<{ data: { repository: { issue: { id: string }; labels: { nodes: { id: string; name: string }[] } } } }>().data
      .repository;
    const node = (name: string) => repo.labels.nodes.find((l) => l.name === name)!.id;
    const update = async (labels: string[], state: 'OPEN' | 'CLOSED') => {
      const res = await t.graphql(
        'mutation($input: UpdateIssueInput!) { updateIssue(input: $input) { issue { state labels(first: 10) { nodes { name } } } } }',
        { input: { id: repo.issue.id, labelIds: labels.map(node), state } },
        h(),
      );
      expect(res.json<{ errors?: unknown }>().errors, res.body).toBeUndefined();
    };
    await update(['bug'], 'CLOSED');
    expect(await counters('ui')).toEqual({ numIssues: 0, numClosedIssues: 0 });
    await expectExact();
    await update(['docs'], 'OPEN');
    await expectExact();
    await update(['docs', 'ui'], 'CLOSED');
    await expectExact();
    await call('DELETE', '/api/v1/repos/owner/r/issues/3', undefined, 204);
    await expectExact();
    // A closed issue deleted:
    await call('DELETE', '/api/v1/repos/owner/r/issues/2', undefined, 204);
    expect(await counters('docs')).toEqual({ numIssues: 1, numClosedIssues: 0 });
    await expectExact();
  });

  it('recounts an organization’s labels when a repository of it is deleted or transferred away', async () => {
    const org = await createOrgAs(t, owner, 'acme');
    const orgLabel = (await call('POST', '/api/v1/orgs/acme/labels', { name: 'org-bug', color: '#00ff00' }, 201)).id as number;
    for (const name of ['gone', 'moved', 'kept']) {
      await call('POST', '/api/v1/orgs/acme/repos', { name }, 201);
      await call('POST', `/api/v1/repos/acme/${name}/issues`, { title: 'x', labels: [orgLabel] }, 201);
    }
    const orgCounters = () => t.db.label.findUniqueOrThrow({ where: { id: orgLabel }, select: { numIssues: true, numClosedIssues: true } });
    expect(await orgCounters()).toEqual({ numIssues: 3, numClosedIssues: 0 });
    await call('DELETE', '/api/v1/repos/acme/gone', undefined, 204);
    expect(await orgCounters()).toEqual({ numIssues: 2, numClosedIssues: 0 });
    await call('POST', '/api/v1/repos/acme/moved/transfer', { new_owner: 'owner' }, 202);
    expect(await orgCounters()).toEqual({ numIssues: 1, numClosedIssues: 0 });
    expect(org.id).toBeGreaterThan(0);
    await expectExact();
  });
});
