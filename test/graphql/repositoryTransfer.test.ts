// GraphQL repository transfer: transferRepository (pending and immediate), acceptRepositoryTransfer,
// rejectRepositoryTransfer on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { gql, mutationError } from '../helpers/graphql.ts';

const TRANSFER = `mutation($owner: String!, $name: String!, $to: String!) {
  transferRepository(input: { owner: $owner, name: $name, newOwnerLogin: $to }) {
    pending
    repository { nameWithOwner }
  }
}`;
const decide = (name: string) => `mutation($owner: String!, $name: String!) {
  ${name}(input: { owner: $owner, name: $name }) {
    repository { nameWithOwner }
  }
}`;

type Result = Record<string, { pending?: boolean; repository: { nameWithOwner: string } } | null>;

describe.each(PROVIDERS)('GraphQL repository transfer (%s)', (provider) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const n of ['alice', 'bob', 'carol']) await t.createUser(n);
    for (const name of ['one', 'two', 'three']) {
      await t.request('POST', '/api/v1/user/repos', { headers: basic('alice'), body: { name, private: true } });
    }
  });
  afterAll(() => t.close());

  it('a transfer to another user waits; the recipient accepts; others are refused', async () => {
    const start = await gql<Result>(t, TRANSFER, { variables: { owner: 'alice', name: 'one', to: 'bob' }, headers: basic('alice') });
    expect(start.data!.transferRepository).toMatchObject({ pending: true, repository: { nameWithOwner: 'alice/one' } });
    const carol = await gql<Result>(t, decide('acceptRepositoryTransfer'), {
      variables: { owner: 'alice', name: 'one' },
      headers: basic('carol'),
    });
    expect(mutationError(carol, 'acceptRepositoryTransfer')?.code).toBe('NOT_FOUND');
    const ok = await gql<Result>(t, decide('acceptRepositoryTransfer'), {
      variables: { owner: 'alice', name: 'one' },
      headers: basic('bob'),
    });
    expect(ok.data!.acceptRepositoryTransfer).toMatchObject({ repository: { nameWithOwner: 'bob/one' } });
  });

  it('reject keeps the repository; a transfer to oneself is immediate; a non-owner is refused', async () => {
    await gql<Result>(t, TRANSFER, { variables: { owner: 'alice', name: 'two', to: 'bob' }, headers: basic('alice') });
    const rej = await gql<Result>(t, decide('rejectRepositoryTransfer'), {
      variables: { owner: 'alice', name: 'two' },
      headers: basic('bob'),
    });
    expect(rej.data!.rejectRepositoryTransfer).toMatchObject({ repository: { nameWithOwner: 'alice/two' } });
    const bobTry = await gql<Result>(t, TRANSFER, { variables: { owner: 'alice', name: 'three', to: 'bob' }, headers: basic('bob') });
    expect(mutationError(bobTry, 'transferRepository')?.code).toBe('NOT_FOUND');
    const unknown = await gql<Result>(t, TRANSFER, { variables: { owner: 'alice', name: 'three', to: 'nobody' }, headers: basic('alice') });
    expect(mutationError(unknown, 'transferRepository')).toMatchObject({
      code: 'NOT_FOUND',
      message: 'The new owner does not exist or cannot be found',
    });
  });
});
