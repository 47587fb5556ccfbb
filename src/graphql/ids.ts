import { decodeGlobalID, encodeGlobalID } from '@pothos/plugin-relay';
import { isObjectType, type GraphQLSchema } from 'graphql';
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

/**
 * Decodes a global id as Pothos encodes it (base64 `Type:id`). One that does not decode names nothing (typename
 * ''), so its lookup answers NOT_FOUND at its own field, as GitHub does, instead of failing the whole request
 * (the cost check maps arguments before execution).
 */
export function decodeNodeId(globalId: string): GlobalId {
  try {
    return decodeGlobalID(globalId);
  } catch {
    return { typename: '', id: globalId };
  }
}

/** Whether `gid` names a type of the schema that implements Node (a global id of ours, maybe of a missing row). */
export function namesNodeType(schema: GraphQLSchema, gid: GlobalId): boolean {
  const type = gid.typename ? schema.getType(gid.typename) : undefined;
  // Query implements Node too, but only its own id names it (queryNode.ts), never one of Pothos' `Query:…` ids.
  return isObjectType(type) && type !== schema.getQueryType() && type.getInterfaces().some((i) => i.name === 'Node');
}

/** GitHub's refusal of a global id that names no node of ours. */
export const unresolvableNodeId = (gid: GlobalId): NotFoundError =>
  new NotFoundError(`Could not resolve to a node with the global id of '${gid.typename ? encodeGlobalID(gid.typename, gid.id) : gid.id}'`);
