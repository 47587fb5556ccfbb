// Types of src/bin/prismaParamGraph.js (plain JavaScript, used by the bundle's build).

/** Prisma's client runtime with its parameterization graph decoded lazily; null when it is not the release expected. */
export declare function lazyParamGraph(source: string): string | null;
