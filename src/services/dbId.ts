/** Whether `id` can be a database row id (a positive 32-bit integer): others are not found without a query. */
export const isDbId = (id: number): boolean => Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647;
