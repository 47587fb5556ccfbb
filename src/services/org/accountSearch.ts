// GitHub's user search (GraphQL `search(type: USER)`): users and organizations the viewer may see.
import type { Models } from '../../db/client.ts';
import { containsInsensitive, NO_ROWS } from '../../db/filters.ts';
import type { ServiceContext } from '../context.ts';
import { orgReadWhere } from './visibility.ts';
import { invalidQualifierValue, qualifiedTerms, addInFields, sortOf, unsupportedQualifier } from '../searchQuery.ts';
import { userReadWhere } from '../user/visibility.ts';

type Where = Models.Prisma.UserWhereInput;
type OrderBy = Models.Prisma.UserOrderByWithRelationInput;

/** GitHub's qualifiers of user searches (those not handled by accountSearch are refused by name). */
const GITHUB_USER_QUALIFIERS = new Set([
  'type',
  'in',
  'repos',
  'location',
  'language',
  'created',
  'followers',
  'is',
  'sort',
  'user',
  'org',
]);

/** A user search of GitHub's syntax: the rows' filter (with the read policies) and their order. */
export interface AccountSearch {
  where: Where;
  orderBy: OrderBy[];
}

/**
 * The accounts `query` (GitHub's syntax) asks for: active individuals through the read policy of users and
 * organizations through theirs. `type:` user or org; `user:`/`org:` a login; `in:` login or name; `sort:` joined
 * (`-asc`/`-desc`; by login otherwise). Words match logins and full names.
 * @throws InvalidArgumentError naming an unsupported qualifier or a value a qualifier does not take
 */
export function accountSearch(cx: ServiceContext, query: string): AccountSearch {
  const and: Where[] = [];
  let kinds: ('user' | 'org')[] = ['user', 'org'];
  const words: string[] = [];
  const fields = new Set<'login' | 'name'>();
  let orderBy: OrderBy[] = [{ lowerName: 'asc' }, { id: 'asc' }];
  for (const term of qualifiedTerms(query, GITHUB_USER_QUALIFIERS, words)) {
    switch (term.qualifier) {
      case 'type': {
        const v = term.value.toLowerCase();
        if (v !== 'user' && v !== 'org') throw invalidQualifierValue(term, 'user or org');
        kinds = kinds.filter((k) => k === v);
        break;
      }
      case 'user':
      case 'org':
        and.push({ lowerName: term.value.toLowerCase() });
        break;
      case 'in':
        addInFields(term, ['login', 'name'] as const, fields);
        break;
      case 'sort': {
        const { direction } = sortOf(term, ['joined'] as const);
        orderBy = [{ createdAt: direction }, { id: direction }];
        break;
      }
      default:
        throw unsupportedQualifier(term);
    }
  }
  const inFields = fields.size ? fields : new Set(['login', 'name']);
  for (const w of words) {
    and.push({
      OR: [
        ...(inFields.has('login') ? [{ lowerName: { contains: w.toLowerCase() } }] : []),
        ...(inFields.has('name') ? [{ fullName: containsInsensitive(cx.config.dbProvider, w) }] : []),
      ],
    });
  }
  const readable: Where[] = [];
  if (kinds.includes('user')) readable.push({ AND: [{ type: 'INDIVIDUAL', isActive: true }, userReadWhere(cx)] });
  if (kinds.includes('org')) readable.push(orgReadWhere(cx));
  // Both `type:user` and `type:org` leave no kind: nothing matches (never an empty OR, which Prisma drops).
  return { where: { AND: [readable.length ? { OR: readable } : NO_ROWS, ...and] }, orderBy };
}
