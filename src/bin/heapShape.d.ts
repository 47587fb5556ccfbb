// Types of src/bin/heapShape.js (plain JavaScript, imported by the `forgegraph` command before the bundle).

/** Sets --optimize-for-size unless NODE_OPTIONS or the node flags shape the heap. */
export declare function compactHeap(): void;
/** The server's heap: small when idle, grown under load (unless NODE_OPTIONS or the node flags shape it). */
export declare function adaptHeap(): void;
/** Turns off V8's allocation-site pretenuring unless NODE_OPTIONS or the node flags name it. */
export declare function noPretenuring(): void;
/** The node flags and environment that bound a server's young generation on this Node, or undefined. */
export declare function youngGenerationBound(): { flags: string[]; env: Record<string, string> } | undefined;
/** For `serve`: runs this process again (process.execve) with its young generation bounded, when that applies. */
export declare function boundYoungGeneration(): void;
