// OAuth2 applications a user registers (Gitea models/auth/oauth2.go, routers/api/v1/user/app.go): the REST
// /user/applications/oauth2 API, and the client lookups of the authorization and token endpoints.
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { hashToken } from '../../auth/token.ts';
import type { Models } from '../../db/client.ts';
import { NotFoundError, ValidationError } from '../../errors.ts';
import { requireViewer, requireWriter } from '../access/guards.ts';
import { requireScopes } from '../access/writeGate.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { skipTake, type ListOptions, type Page } from '../paging.ts';
import { validateRedirectUris } from './redirectUri.ts';

/** An application row with its redirect URIs parsed. */
export type Application = Omit<Models.OAuth2Application, 'redirectUris'> & { redirectUris: string[] };

/** CreateOAuth2ApplicationOptions: the fields of a create, and of an update (which replaces them all, as Gitea). */
export interface ApplicationInput {
  name: string;
  redirectUris: string[];
  confidentialClient: boolean;
  skipSecondaryAuthorization: boolean;
}

/** An application and its new client secret, which is shown this once and stored only hashed. */
export interface ApplicationWithSecret {
  app: Application;
  secret: string;
}

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** Gitea's GenerateClientSecret: `gto_` and 32 random bytes in lower-case base32 without padding. */
function newClientSecret(): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of randomBytes(32)) {
    value = (value << 8) | byte;
    bits += 8;
    for (; bits >= 5; bits -= 5) out += BASE32[(value >>> (bits - 5)) & 31];
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return `gto_${out}`;
}

/** The row as the service hands it out. */
export function parseApplication(row: Models.OAuth2Application): Application {
  const uris: unknown = JSON.parse(row.redirectUris);
  return { ...row, redirectUris: Array.isArray(uris) ? uris.filter((u): u is string => typeof u === 'string') : [] };
}

function validateInput(input: ApplicationInput): void {
  if (!input.name.trim()) throw new ValidationError('Required', { field: 'name', rule: 'Required' });
  if (input.name.length > 255) throw new ValidationError('MaxSize', { field: 'name', rule: 'MaxSize' });
  validateRedirectUris(input.redirectUris);
}

const rowData = (input: ApplicationInput) => ({
  name: input.name,
  redirectUris: JSON.stringify(input.redirectUris),
  confidentialClient: input.confidentialClient,
  skipSecondaryAuthorization: input.skipSecondaryAuthorization,
});

/**
 * Registers an OAuth2 application for the viewer, with a new client id and secret.
 * @throws UnauthenticatedError, PermissionDeniedError (write:user), ValidationError
 */
export async function createApplication(cx: ServiceContext, input: ApplicationInput): Promise<ApplicationWithSecret> {
  const viewer = requireWriter(cx, 'write:user');
  validateInput(input);
  const secret = newClientSecret();
  const row = await cx.db.oAuth2Application.create({
    data: { ...rowData(input), userId: viewer.id, clientId: randomUUID(), clientSecretHash: hashToken(secret) },
  });
  return { app: parseApplication(row), secret };
}

/**
 * The viewer's applications, oldest first.
 * @throws UnauthenticatedError, PermissionDeniedError (read:user)
 */
export async function listApplications(cx: ServiceContext, opts: ListOptions): Promise<Page<Application>> {
  requireScopes(cx, 'read:user');
  const viewer = requireViewer(cx);
  const where = { userId: viewer.id };
  const [rows, total] = await Promise.all([
    cx.db.oAuth2Application.findMany({ where, orderBy: { id: 'asc' }, ...skipTake(opts) }),
    cx.db.oAuth2Application.count({ where }),
  ]);
  return { items: rows.map(parseApplication), total };
}

/** One of the viewer's applications; another user's is not found (Gitea: 404). */
async function ownApplication(cx: ServiceContext, viewer: Models.User, id: number): Promise<Models.OAuth2Application> {
  const row = Number.isSafeInteger(id) && id > 0 ? await cx.db.oAuth2Application.findUnique({ where: { id } }) : null;
  if (!row || row.userId !== viewer.id) throw new NotFoundError('not found', { applicationId: id });
  return row;
}

/**
 * One of the viewer's applications (without its secret).
 * @throws UnauthenticatedError, PermissionDeniedError (read:user), NotFoundError
 */
export async function getApplication(cx: ServiceContext, id: number): Promise<Application> {
  requireScopes(cx, 'read:user');
  return parseApplication(await ownApplication(cx, requireViewer(cx), id));
}

/**
 * Replaces an application's settings and, as Gitea does on every update, its client secret.
 * @throws UnauthenticatedError, PermissionDeniedError (write:user), NotFoundError, ValidationError
 */
export async function updateApplication(cx: ServiceContext, id: number, input: ApplicationInput): Promise<ApplicationWithSecret> {
  const viewer = requireWriter(cx, 'write:user');
  validateInput(input);
  await ownApplication(cx, viewer, id);
  const secret = newClientSecret();
  const row = await cx.db.oAuth2Application.update({ where: { id }, data: { ...rowData(input), clientSecretHash: hashToken(secret) } });
  return { app: parseApplication(row), secret };
}

/**
 * Deletes one of the viewer's applications, revoking every grant of it and so every token it was given.
 * @throws UnauthenticatedError, PermissionDeniedError (write:user), NotFoundError
 */
export async function deleteApplication(cx: ServiceContext, id: number): Promise<void> {
  const viewer = requireWriter(cx, 'write:user');
  const app = await ownApplication(cx, viewer, id);
  await withTx(cx, async (tx) => {
    // The grants first, by name: their deletion is what tells the token caches (db/authWrites.ts).
    await tx.oAuth2Grant.deleteMany({ where: { applicationId: app.id } });
    await tx.oAuth2Application.deleteMany({ where: { id: app.id } });
  });
}

/** The application with this client id, or null. */
export async function findClient(cx: ServiceContext, clientId: string): Promise<Application | null> {
  const row = clientId ? await cx.db.oAuth2Application.findUnique({ where: { clientId } }) : null;
  return row ? parseApplication(row) : null;
}

/** Whether `secret` is the application's client secret (compared as hashes, in constant time). */
export function clientSecretMatches(app: Pick<Models.OAuth2Application, 'clientSecretHash'>, secret: string): boolean {
  const given = Buffer.from(hashToken(secret), 'hex');
  const stored = Buffer.from(app.clientSecretHash, 'hex');
  return secret !== '' && given.length === stored.length && timingSafeEqual(given, stored);
}
