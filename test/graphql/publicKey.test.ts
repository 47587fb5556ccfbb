// GraphQL users' SSH keys: User.publicKeys, node(id:), addPublicKey and deletePublicKey on both databases.
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { gql, mutationError } from '../helpers/graphql.ts';

/** A fresh ed25519 public key line. */
function keyLine(): string {
  const raw = generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  const label = Buffer.from('ssh-ed25519');
  const len = (b: Buffer) => Buffer.from([0, 0, 0, b.length]);
  return `ssh-ed25519 ${Buffer.concat([len(label), label, len(raw), raw]).toString('base64')}`;
}

const ADD = `mutation($title: String!, $key: String!) {
  addPublicKey(input: { title: $title, key: $key }) {
    publicKey { id databaseId title key fingerprint isReadOnly }
  }
}`;

interface AddResult {
  addPublicKey: {
    publicKey: { id: string; databaseId: number; title: string; key: string; fingerprint: string };
  } | null;
}

describe.each(PROVIDERS)('GraphQL public keys (%s)', (provider) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('alice');
    await t.createUser('bob');
    await t.createUser('hidden', { visibility: 'PRIVATE' });
  });
  afterAll(() => t.close());

  it('addPublicKey adds a key that User.publicKeys and node(id:) show; duplicates are refused', async () => {
    const key = keyLine();
    const res = await gql<AddResult>(t, ADD, { variables: { title: 'laptop', key }, headers: basic('alice') });
    expect(res.errors).toBeUndefined();
    const pk = res.data!.addPublicKey!.publicKey;
    expect(pk).toMatchObject({ title: 'laptop', key, isReadOnly: false });
    expect(pk.fingerprint).toMatch(/^SHA256:/);
    const again = await gql<AddResult>(t, ADD, { variables: { title: 'again', key }, headers: basic('bob') });
    expect(mutationError(again, 'addPublicKey')).toMatchObject({ message: 'Key content has been used as non-deploy key' });

    const list = await gql<{ user: { publicKeys: { totalCount: number; nodes: Array<{ id: string }> } } }>(
      t,
      '{ user(login: "alice") { publicKeys(first: 10) { totalCount nodes { id title } } } }',
    );
    expect(list.data!.user.publicKeys.totalCount).toBe(1);
    expect(list.data!.user.publicKeys.nodes[0]!.id).toBe(pk.id);
    const node = await gql<{ node: { title: string } | null }>(t, `{ node(id: "${pk.id}") { ... on PublicKey { title } } }`);
    expect(node.data!.node).toEqual({ title: 'laptop' });
  });

  it("a private user's keys are visible to the user only", async () => {
    const res = await gql<AddResult>(t, ADD, { variables: { title: 'h', key: keyLine() }, headers: basic('hidden') });
    const id = res.data!.addPublicKey!.publicKey.id;
    expect((await gql<{ node: unknown }>(t, `{ node(id: "${id}") { id } }`)).data!.node).toBeNull();
    expect((await gql<{ node: unknown }>(t, `{ node(id: "${id}") { id } }`, { headers: basic('bob') })).data!.node).toBeNull();
    expect((await gql<{ node: unknown }>(t, `{ node(id: "${id}") { id } }`, { headers: basic('hidden') })).data!.node).toEqual({ id });
  });

  it('deletePublicKey: another user is refused, the owner deletes; anonymous is unauthenticated', async () => {
    const res = await gql<AddResult>(t, ADD, { variables: { title: 'del', key: keyLine() }, headers: basic('bob') });
    const id = res.data!.addPublicKey!.publicKey.id;
    const DEL = `mutation($id: ID!) { deletePublicKey(input: { id: $id }) { __typename deleted } }`;
    const denied = await gql<{ deletePublicKey: unknown }>(t, DEL, {
      variables: { id },
      headers: basic('alice'),
    });
    expect(mutationError(denied, 'deletePublicKey')).toMatchObject({
      code: 'PERMISSION_DENIED',
      message: 'You do not have access to this key',
    });
    const anon = await gql<{ deletePublicKey: unknown }>(t, DEL, { variables: { id } });
    expect(mutationError(anon, 'deletePublicKey')?.code).toBe('UNAUTHENTICATED');
    const ok = await gql<{ deletePublicKey: { deleted: boolean } }>(t, DEL, { variables: { id }, headers: basic('bob') });
    expect(ok.data!.deletePublicKey).toEqual({ __typename: 'DeletePublicKeyPayload', deleted: true });
    const gone = await gql<{ deletePublicKey: unknown }>(t, DEL, { variables: { id }, headers: basic('bob') });
    expect(mutationError(gone, 'deletePublicKey')?.code).toBe('NOT_FOUND');
  });
});
