/**
 * The `total` a connection's resolver returns beside the page (`{ ...page, total }`), for its `totalCount`
 * field: Pothos types the connection object without it.
 */
export function totalOf(conn: object): number {
  return 'total' in conn && typeof conn.total === 'number' ? conn.total : 0;
}
