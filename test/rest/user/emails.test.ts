import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROVIDERS } from '../../helpers/db.ts';
import { basic, isGiteaError, startTestApp, type TestApp } from '../../helpers/app.ts';

const SWAGGER = 'http://localhost:3000/api/swagger';

interface ApiEmail {
  email: string;
  verified: boolean;
  primary: boolean;
  user_id: number;
  username: string;
}

/** Gitea's Email entry of the viewer's own list (no user id or name). */
const own = (email: string, primary = false): ApiEmail => ({ email, verified: true, primary, user_id: 0, username: '' });

describe.each(PROVIDERS)('REST /user/emails (%s)', (provider) => {
  let t: TestApp;

  const list = async (user: string) => {
    const res = await t.request('GET', '/api/v1/user/emails', { headers: basic(user) });
    expect(res.statusCode).toBe(200);
    return res.json() as ApiEmail[];
  };
  const add = (user: string, emails: unknown) => t.request('POST', '/api/v1/user/emails', { headers: basic(user), body: { emails } });
  const remove = (user: string, emails: unknown) => t.request('DELETE', '/api/v1/user/emails', { headers: basic(user), body: { emails } });

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('alice');
    await t.createUser('bob');
  });
  afterAll(() => t.close());

  it.each([
    ['GET', undefined],
    ['POST', { emails: ['anon@example.com'] }],
    ['DELETE', { emails: ['alice@example.com'] }],
  ])('%s anonymously is 401 `token is required`', async (method, body) => {
    const res = await t.request(method, '/api/v1/user/emails', { body });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'token is required', url: SWAGGER });
  });

  it('GET lists the primary address, with user_id 0 and username ""', async () => {
    expect(await list('alice')).toEqual([own('alice@example.com', true)]);
  });

  it('POST adds addresses (verified, not primary) and returns all of them, primary first', async () => {
    const res = await add('alice', ['alice.work@example.com', 'Alice.Home@Example.org']);
    expect(res.statusCode).toBe(201);
    const expected = [own('alice@example.com', true), own('alice.work@example.com'), own('Alice.Home@Example.org')];
    expect(res.json()).toEqual(expected);
    expect(await list('alice')).toEqual(expected);
    // Bob's list is unaffected.
    expect(await list('bob')).toEqual([own('bob@example.com', true)]);
  });

  it('a new address signs in with Basic', async () => {
    const res = await t.request('GET', '/api/v1/user', { headers: basic('alice.work@example.com') });
    expect(res.statusCode).toBe(200);
    expect(res.json().login).toBe('alice');
  });

  it.each([
    ['an empty list', [], 'Email list empty'],
    ['no list', undefined, 'Email list empty'],
    ['an invalid address', ['x'], 'Email address "x" invalid'],
    ['an address with a bad character', ['a b@example.com'], 'Email address "a b@example.com" invalid'],
    ['an invalid address after a valid one', ['fine@example.com', 'not-an-address'], 'Email address "not-an-address" invalid'],
    ['an address of another user', ['bob@example.com'], 'Email address has been used: bob@example.com'],
    ['an address of another user in other case', ['BOB@example.com'], 'Email address has been used: BOB@example.com'],
    ['one of one’s own addresses', ['alice.work@example.com'], 'Email address has been used: alice.work@example.com'],
  ])('POST with %s → 422', async (_label, emails, message) => {
    const before = await list('alice');
    const res = await add('alice', emails);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ message, url: SWAGGER });
    expect(await list('alice')).toEqual(before);
  });

  it('DELETE removes addresses (case-insensitively): 204', async () => {
    const res = await remove('alice', ['ALICE.HOME@example.org']);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(await list('alice')).toEqual([own('alice@example.com', true), own('alice.work@example.com')]);
    expect(await t.db.emailAddress.count({ where: { lowerEmail: 'alice.home@example.org' } })).toBe(0);
  });

  it('DELETE with an empty list is a no-op 204', async () => {
    const res = await remove('alice', []);
    expect(res.statusCode).toBe(204);
    expect(await list('alice')).toHaveLength(2);
  });

  it.each([
    ['an unknown address', 'nope@example.com'],
    ['another user’s address', 'bob@example.com'],
  ])('DELETE of %s → 404', async (_label, email) => {
    const res = await remove('alice', [email]);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: `e-mail address does not exist [email: ${email}]`, url: SWAGGER });
    expect(await list('bob')).toEqual([own('bob@example.com', true)]);
  });

  it('DELETE of the primary address → 400, and nothing is removed', async () => {
    const res = await remove('alice', ['alice.work@example.com', 'alice@example.com']);
    expect(res.statusCode).toBe(400);
    expect(isGiteaError(res.json())).toBe(true);
    expect(await list('alice')).toEqual([own('alice@example.com', true), own('alice.work@example.com')]);
  });

  it('a deleted address can be added again, by anyone', async () => {
    expect((await remove('alice', ['alice.work@example.com'])).statusCode).toBe(204);
    const res = await add('bob', ['alice.work@example.com']);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual([own('bob@example.com', true), own('alice.work@example.com')]);
    expect(await list('alice')).toEqual([own('alice@example.com', true)]);
  });
});
