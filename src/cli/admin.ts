// `forgegraph admin user …`: the user commands of `gitea admin user`, through the user and token services.
import * as tokenService from '../services/user/token.ts';
import * as userService from '../services/user/user.ts';
import { withSystem } from './system.ts';

export interface CreateUserFlags {
  username: string;
  email: string;
  admin: boolean;
  mustChangePassword: boolean;
  restricted: boolean;
  accessToken: boolean;
  accessTokenName: string;
  accessTokenScopes: string;
}

/** `admin user create` with a password already checked against the policy. */
export async function createUser(o: CreateUserFlags, password: string): Promise<void> {
  await withSystem(async (cx) => {
    await userService.createUser(cx, {
      username: o.username,
      email: o.email,
      password,
      admin: o.admin,
      mustChangePassword: o.mustChangePassword,
      restricted: o.restricted,
    });
    if (o.accessToken) {
      const created = await tokenService.createAccessToken(cx, {
        username: o.username,
        name: o.accessTokenName,
        scopes: o.accessTokenScopes.split(','),
      });
      process.stdout.write(`Access token was successfully created... ${created.secret}\n`);
    }
    process.stdout.write(`New user '${o.username}' has been successfully created!\n`);
  });
}

/** `admin user change-password`. */
export async function changePassword(o: { username: string; mustChangePassword: boolean }, password: string): Promise<void> {
  await withSystem(async (cx) => {
    await userService.changePassword(cx, { username: o.username, password, mustChangePassword: o.mustChangePassword });
    process.stdout.write(`${o.username}'s password has been successfully updated!\n`);
  });
}

/** `admin user list`: Gitea's tab-separated table. */
export async function listUsers(o: { admin: boolean }): Promise<void> {
  await withSystem(async (cx) => {
    const rows: string[] = ['ID\tUsername\tEmail\tIsActive\tIsAdmin\t2FA'];
    for (let page = 1; ; page++) {
      const result = await userService.adminListUsers(cx, { page, pageSize: 50, sort: 'id', ...(o.admin ? { isAdmin: true } : {}) });
      for (const u of result.items) rows.push(`${u.id}\t${u.name}\t${u.email}\t${u.isActive}\t${u.isAdmin}\tfalse`);
      if (page * 50 >= result.total) break;
    }
    process.stdout.write(`${rows.join('\n')}\n`);
  });
}
