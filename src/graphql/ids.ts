import { NotFoundError } from '../errors.ts';

/** The database id inside a global id; 0 (matches no row) for anything but a 32-bit positive integer. */
export const dbId = (id: string): number => (/^\d{1,10}$/.test(id) && Number(id) <= 2_147_483_647 ? Number(id) : 0);

/** A decoded global id. */
export type GlobalId = { typename: string; id: string };

/** The database id inside a global id of `typename`; 0 (matches no row, so the service answers NotFound) for another type. */
export const dbIdOf = (gid: GlobalId, typename: string): number => (gid.typename === typename ? dbId(gid.id) : 0);

/** The database id inside a global id of `typename`. @throws NotFoundError with `message` for another type */
export function requireDbIdOf(gid: GlobalId, typename: string, message: string): number {
  if (gid.typename !== typename) throw new NotFoundError(message, { id: gid.id });
  return dbId(gid.id);
}

/** GraphQL's null means "not given" for optional inputs. */
export const opt = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);
