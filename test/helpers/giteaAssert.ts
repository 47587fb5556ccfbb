import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import { isGiteaError, type TestApp } from './app.ts';

/** Gitea's `url` field of error bodies for ROOT_URL http://localhost:3000/. */
export const SWAGGER_URL = 'http://localhost:3000/api/swagger';

/** Asserts the status and Gitea's `{"message","url"}` body; `message` exact or a pattern. */
export function expectGiteaError(res: LightMyRequestResponse, status: number, message?: string | RegExp): void {
  expect({ status: res.statusCode, body: res.body }).toMatchObject({ status });
  const body: unknown = res.json();
  expect(isGiteaError(body)).toBe(true);
  const got = (body as { message: string }).message;
  if (typeof message === 'string') expect(got).toBe(message);
  else if (message) expect(got).toMatch(message);
}

/** Gitea's Link header for a list endpoint: `<ROOT/path?sorted query with page=N>; rel="…"` joined by ','. */
export function linkHeader(path: string, query: Record<string, string>, rels: Array<[rel: string, page: number]>): string {
  return rels
    .map(([rel, page]) => {
      const params = new URLSearchParams({ ...query, page: String(page) });
      params.sort();
      return `<http://localhost:3000/api/v1/${path}?${params.toString()}>; rel="${rel}"`;
    })
    .join(',');
}

/**
 * An organization row written directly, with a contact e-mail address row: a state the org service never makes
 * (no Owners team, and organizations get no e-mail rows), for tests of the guards against such rows.
 * Fixtures of ordinary organizations use createOrgAs (helpers/org.ts).
 */
export async function createOrgRow(t: TestApp, name: string, email = ''): Promise<Models.User> {
  return t.db.user.create({
    data: {
      name,
      lowerName: name.toLowerCase(),
      type: 'ORGANIZATION',
      email,
      ...(email ? { emailAddresses: { create: { email, lowerEmail: email.toLowerCase(), isActivated: true, isPrimary: true } } } : {}),
    },
  });
}

/**
 * A repository row written directly (no git directory, units or owner's watch), for tests that craft ties no
 * service makes yet (stars, watches, transfers). Fixtures of ordinary repositories use createRepo (helpers/fixtures.ts).
 */
export async function createRepoRow(t: TestApp, owner: Models.User, name: string): Promise<Models.Repository> {
  return t.db.repository.create({ data: { ownerId: owner.id, ownerName: owner.name, name, lowerName: name.toLowerCase() } });
}

/**
 * A commit's `verification` (Gitea PayloadCommitVerification) for a good signature of alice's: `reason` names her
 * and the key, `signature` is the armored signature of `armor` (`SSH` or `PGP`), `payload` the commit without it.
 */
export function expectVerifiedByAlice(v: Record<string, unknown>, reason: string, armor: 'SSH' | 'PGP'): void {
  expect(v).toMatchObject({ verified: true, reason, signer: { username: 'alice', name: 'alice', email: 'alice@example.com' } });
  expect(v.signature).toMatch(new RegExp(`^-----BEGIN ${armor} SIGNATURE-----\\n[\\s\\S]*-----END ${armor} SIGNATURE-----\\n?$`));
  expect(v.payload).toMatch(/^tree [0-9a-f]{40}\n/);
  expect(v.payload).not.toContain('gpgsig');
}
