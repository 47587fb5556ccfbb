// GraphQL locks and pins: lockLockable, unlockLockable, pinIssue, unpinIssue and the Issue fields, on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { addCollaborator } from '../helpers/fixtures.ts';
import { gql, mutationError, type MutationError } from '../helpers/graphql.ts';
import { PullFixture } from '../helpers/pull.ts';

interface IssueFields {
  locked: boolean;
  activeLockReason: string | null;
  isPinned: boolean;
  pinOrder: number;
}
type Payload = Record<string, IssueFields>;

const FIELDS = 'locked ... on Issue { activeLockReason isPinned pinOrder }';

describe.each(PROVIDERS)('GraphQL issue lock and pin (%s)', (provider) => {
  let t: TestApp;
  const ids: Record<string, string> = {};

  async function run(name: string, input: Record<string, unknown>, viewer: string, out: string) {
    const res = await gql<Record<string, Payload | null>>(
      t,
      `mutation($input: ${name[0]!.toUpperCase()}${name.slice(1)}Input!) { ${name}(input: $input) { ${out} { ${FIELDS} } } }`,
      { variables: { input }, headers: basic(viewer) },
    );
    return { payload: res.data?.[name] ?? null, error: mutationError(res, name) };
  }

  /** A mutation that must succeed: its payload. */
  async function mutate(name: string, input: Record<string, unknown>, viewer: string, out: string): Promise<Payload> {
    const { payload, error } = await run(name, input, viewer, out);
    expect(error).toBeNull();
    return payload!;
  }

  /** A mutation that must be refused: its error. */
  async function refused(name: string, input: Record<string, unknown>, viewer: string, out: string): Promise<MutationError | null> {
    const { payload, error } = await run(name, input, viewer, out);
    expect(payload).toBeNull();
    return error;
  }

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const n of ['alice', 'reader', 'outsider']) await t.createUser(n);
    for (const [name, priv] of [
      ['pub', false],
      ['priv', true],
    ] as const) {
      const res = await t.request('POST', '/api/v1/user/repos', { headers: basic('alice'), body: { name, private: priv } });
      const repo = (await t.db.repository.findUniqueOrThrow({ where: { id: res.json().id as number } })) as Models.Repository;
      await addCollaborator(t, repo, (await t.db.user.findFirstOrThrow({ where: { name: 'reader' } })) as Models.User, 'read');
      const issue = await t.request('POST', `/api/v1/repos/alice/${name}/issues`, { headers: basic('alice'), body: { title: 'x' } });
      const q = await gql<{ repository: { issue: { id: string } } }>(
        t,
        `{ repository(owner: "alice", name: "${name}") { issue(number: ${issue.json().number}) { id } } }`,
        {
          headers: basic('alice'),
        },
      );
      ids[name] = q.data!.repository.issue.id;
    }
  });
  afterAll(() => t.close());

  it('pull requests: lockLockable takes a PullRequest id; PullRequest.activeLockReason and isPinned; /pulls/pinned', async () => {
    const f = await PullFixture.start(t);
    await f.createRepo('alice', 'prs');
    const number = await f.pushAndOpen('alice', 'prs', 'alice', 'feature', { 'a.txt': 'a\n' });
    const q = await gql<{ repository: { pullRequest: { id: string } } }>(
      t,
      `{ repository(owner: "alice", name: "prs") { pullRequest(number: ${number}) { id } } }`,
      { headers: basic('alice') },
    );
    const prId = q.data!.repository.pullRequest.id;
    const locked = await mutate('lockLockable', { lockableId: prId, lockReason: 'RESOLVED' }, 'alice', 'lockedRecord');
    expect(locked.lockedRecord).toMatchObject({ locked: true, activeLockReason: 'RESOLVED' });
    expect((await mutate('pinIssue', { issueId: prId }, 'alice', 'issue')).issue).toMatchObject({ isPinned: true, pinOrder: 1 });
    const pr = await gql<{ repository: { pullRequest: { locked: boolean; activeLockReason: string; isPinned: boolean } } }>(
      t,
      `{ repository(owner: "alice", name: "prs") { pullRequest(number: ${number}) { locked activeLockReason isPinned } } }`,
      { headers: basic('alice') },
    );
    expect(pr.data!.repository.pullRequest).toEqual({ locked: true, activeLockReason: 'RESOLVED', isPinned: true });
    const pinned = await t.request('GET', '/api/v1/repos/alice/prs/pulls/pinned', { headers: basic('alice') });
    expect((pinned.json() as Array<{ number: number; pin_order: number }>).map((p) => [p.number, p.pin_order])).toEqual([[number, 1]]);
    expect((await t.request('GET', '/api/v1/repos/alice/prs/new_pin_allowed')).json()).toEqual({ issues: true, pull_requests: true });
    f.dispose();
  });

  it('lockLockable with a reason shows activeLockReason; unlockLockable clears it; readers are refused', async () => {
    const denied = await refused('lockLockable', { lockableId: ids.pub, lockReason: 'TOO_HEATED' }, 'reader', 'lockedRecord');
    expect(denied).toMatchObject({ code: 'PERMISSION_DENIED', message: 'no permission to lock this issue' });
    const locked = await mutate('lockLockable', { lockableId: ids.pub, lockReason: 'TOO_HEATED' }, 'alice', 'lockedRecord');
    expect(locked.lockedRecord).toMatchObject({ locked: true, activeLockReason: 'TOO_HEATED' });
    const unlocked = await mutate('unlockLockable', { lockableId: ids.pub }, 'alice', 'unlockedRecord');
    expect(unlocked.unlockedRecord).toMatchObject({ locked: false, activeLockReason: null });
  });

  it('pinIssue / unpinIssue: admins only; a private issue is not found to outsiders', async () => {
    const denied = await refused('pinIssue', { issueId: ids.pub }, 'reader', 'issue');
    expect(denied?.code).toBe('PERMISSION_DENIED');
    expect((await refused('pinIssue', { issueId: ids.priv }, 'outsider', 'issue'))?.code).toBe('NOT_FOUND');
    expect((await refused('lockLockable', { lockableId: ids.priv }, 'outsider', 'lockedRecord'))?.code).toBe('NOT_FOUND');
    const pinned = await mutate('pinIssue', { issueId: ids.pub }, 'alice', 'issue');
    expect(pinned.issue).toMatchObject({ isPinned: true, pinOrder: 1 });
    const unpinned = await mutate('unpinIssue', { issueId: ids.pub }, 'alice', 'issue');
    expect(unpinned.issue).toMatchObject({ isPinned: false, pinOrder: 0 });
  });
});
