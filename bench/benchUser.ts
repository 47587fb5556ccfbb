// The user every bench signs in as: `bench` with a fixed password, and its Basic credentials.
import type { App } from '../src/app.ts';
import type { Models } from '../src/db/client.ts';
import { createSystemContext } from '../src/services/context.ts';
import * as tokenService from '../src/services/user/token.ts';
import * as userService from '../src/services/user/user.ts';

export const BENCH_PASSWORD = 'bench-password-1';

/** `Authorization: Basic …` for the bench user. */
export const BENCH_AUTH = { authorization: `Basic ${Buffer.from(`bench:${BENCH_PASSWORD}`).toString('base64')}` };

/** Creates the bench user (a site admin when asked). */
export function createBenchUser(app: App, opts: { admin?: boolean } = {}): Promise<Models.User> {
  return userService.createUser(createSystemContext(app.deps), {
    username: 'bench',
    email: 'bench@example.com',
    password: BENCH_PASSWORD,
    mustChangePassword: false,
    ...(opts.admin ? { admin: true } : {}),
  });
}

/**
 * The bench user and two others (`ann`, `bob`, to assign and mention) with the same password, and a token of the
 * bench user's with every scope: the secret and its `Authorization` header.
 */
export async function createBenchUsersWithToken(app: App): Promise<{ token: string; auth: { authorization: string } }> {
  const sys = createSystemContext(app.deps);
  await createBenchUser(app);
  for (const name of ['ann', 'bob']) {
    await userService.createUser(sys, {
      username: name,
      email: `${name}@example.com`,
      password: BENCH_PASSWORD,
      mustChangePassword: false,
    });
  }
  const { secret } = await tokenService.createAccessToken(sys, { username: 'bench', name: 'bench', scopes: ['all'] });
  return { token: secret, auth: { authorization: `token ${secret}` } };
}
