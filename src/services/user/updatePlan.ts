import type { Models } from '../../db/client.ts';

/** A User update being assembled: the Prisma data and the API names of the fields it sets (for the change event). */
export interface UserUpdatePlan {
  data: Models.Prisma.UserUpdateInput;
  fields: string[];
  /** Sets `key` to `value` under the API name `name`; an undefined value leaves the column alone. */
  set<K extends keyof Models.Prisma.UserUpdateInput>(key: K, value: Models.Prisma.UserUpdateInput[K] | undefined, name: string): void;
}

export function userUpdatePlan(): UserUpdatePlan {
  const data: Models.Prisma.UserUpdateInput = {};
  const fields: string[] = [];
  return {
    data,
    fields,
    set(key, value, name) {
      if (value === undefined) return;
      data[key] = value;
      fields.push(name);
    },
  };
}
