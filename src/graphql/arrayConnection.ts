import { resolveArrayConnection } from '@pothos/plugin-relay';
import type { DefaultConnectionArguments } from '@pothos/plugin-relay';

/** Page sizes of an array connection: plugin-relay's defaults unless given. */
interface Sizes {
  defaultSize?: number;
  maxSize?: number;
}

/**
 * A connection over an array already in memory, with its `total` (totalOf): the page as resolveArrayConnection
 * cuts it, but its edges (a base64 cursor per item) are built only when the operation selects edges, nodes or
 * pageInfo. A list of connections asked only for `totalCount` (ReactionGroup.reactors, 400 a page of issues) then
 * builds none. Arguments that cut the page are checked at once, as before, so bad ones fail whatever is selected.
 */
export function arrayConnection<T>(args: DefaultConnectionArguments, items: readonly T[], sizes: Sizes = {}, total = items.length) {
  return new ArrayConnection(args, items, sizes, total);
}

// A class, not an object of closures: one is made per connection in a list, and closures cost an allocation each.
class ArrayConnection<T> {
  #page: ReturnType<typeof resolveArrayConnection<T>> | undefined;

  constructor(
    private readonly args: DefaultConnectionArguments,
    private readonly items: readonly T[],
    private readonly sizes: Sizes,
    readonly total: number,
  ) {
    if (args.first != null || args.last != null || args.after != null || args.before != null) this.#cut();
  }

  #cut() {
    return (this.#page ??= resolveArrayConnection({ args: this.args, ...this.sizes }, this.items as T[]));
  }

  get edges() {
    return this.#cut().edges;
  }

  get pageInfo() {
    return this.#cut().pageInfo;
  }
}
