// The user every bench signs in as: `bench` with a fixed password, and its Basic credentials.
import type { App } from '../src/app.ts';
import type { Models } from '../src/db/client.ts';
import { createSystemContext } from '../src/services/context.ts';
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
