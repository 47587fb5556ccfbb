import type { Models } from '../../db/client.ts';
import { containsInsensitive } from '../../db/filters.ts';
import { isUniqueViolation } from '../../db/prismaErrors.ts';
import { InvalidArgumentError, NotFoundError, PermissionDeniedError, ValidationError } from '../../errors.ts';
import { requireSiteAdmin, requireViewer } from '../access/guards.ts';
import { requireNeed } from '../access/writeGate.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { skipTake, type ListOptions, type Page } from '../paging.ts';
import { emailProblem } from './validate.ts';

type EmailAddress = Models.EmailAddress;

function requireEmailAccess(cx: ServiceContext, level: 'read' | 'write'): void {
  requireNeed(cx, `${level}:user`, null);
  if (cx.auth.scope?.publicOnly) throw new PermissionDeniedError('this endpoint is not available for public-only tokens');
}

/** The viewer's e-mail addresses, primary first. @throws UnauthenticatedError */
export async function listEmails(cx: ServiceContext): Promise<EmailAddress[]> {
  const viewer = requireViewer(cx);
  requireEmailAccess(cx, 'read');
  return cx.db.emailAddress.findMany({ where: { userId: viewer.id }, orderBy: [{ isPrimary: 'desc' }, { id: 'asc' }] });
}

/**
 * Adds addresses to the viewer's account (activated: Forgegraph sends no confirmation mail) and returns all of them.
 * @throws ValidationError (empty list, invalid or used address)
 */
export async function addEmails(cx: ServiceContext, emails: string[]): Promise<EmailAddress[]> {
  const viewer = requireViewer(cx);
  requireEmailAccess(cx, 'write');
  if (!emails.length) throw new ValidationError('Email list empty');
  for (const email of emails) {
    if (emailProblem(email)) throw new ValidationError(`Email address ${JSON.stringify(email)} invalid`);
  }
  try {
    await withTx(cx, async (tx, emit) => {
      for (const email of emails) {
        const lowerEmail = email.toLowerCase();
        if (await tx.emailAddress.findUnique({ where: { lowerEmail }, select: { id: true } })) {
          throw new ValidationError(`Email address has been used: ${email}`);
        }
        await tx.emailAddress.create({ data: { userId: viewer.id, email, lowerEmail, isActivated: true } });
      }
      emit({ type: 'email.added', userId: viewer.id, emails });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new ValidationError('Email address has been used');
    throw err;
  }
  return listEmails(cx);
}

/** Removes addresses from the viewer's account. @throws NotFoundError for an unknown address, InvalidArgumentError for the primary one */
export async function deleteEmails(cx: ServiceContext, emails: string[]): Promise<void> {
  const viewer = requireViewer(cx);
  requireEmailAccess(cx, 'write');
  await withTx(cx, async (tx, emit) => {
    for (const email of emails) {
      const row = await tx.emailAddress.findUnique({ where: { lowerEmail: email.toLowerCase() } });
      if (!row || row.userId !== viewer.id) throw new NotFoundError(`e-mail address does not exist [email: ${email}]`);
      if (row.isPrimary) throw new InvalidArgumentError('cannot delete primary email address');
      await tx.emailAddress.delete({ where: { id: row.id } });
    }
    emit({ type: 'email.deleted', userId: viewer.id, emails });
  });
}

/** An address with its owner, for the admin listing. */
export type EmailWithUser = EmailAddress & { user: Pick<Models.User, 'id' | 'name'> };

/**
 * Every individual user's addresses (GET /admin/emails[/search]); `q` matches the address, login or full name.
 * Ordered by address, primary first. @throws PermissionDeniedError
 */
export async function adminSearchEmails(cx: ServiceContext, input: ListOptions & { q?: string }): Promise<Page<EmailWithUser>> {
  requireSiteAdmin(cx, 'read');
  const where: Models.Prisma.EmailAddressWhereInput = { user: { type: 'INDIVIDUAL' } };
  const q = input.q?.trim();
  if (q) {
    const provider = cx.config.dbProvider;
    where.OR = [
      { lowerEmail: { contains: q.toLowerCase() } },
      { user: { lowerName: { contains: q.toLowerCase() } } },
      { user: { fullName: containsInsensitive(provider, q) } },
    ];
  }
  const [items, total] = await Promise.all([
    cx.db.emailAddress.findMany({
      where,
      include: { user: { select: { id: true, name: true } } },
      orderBy: [{ lowerEmail: 'asc' }, { isPrimary: 'desc' }, { id: 'asc' }],
      ...skipTake(input),
    }),
    cx.db.emailAddress.count({ where }),
  ]);
  return { items, total };
}
