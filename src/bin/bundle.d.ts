// Types of src/bin/bundle.js (plain JavaScript, so the `forgegraph` command can rebuild without tsx).

/** dist/forgegraph.mjs: the entry the `forgegraph` command runs. */
export declare const BUNDLE: string;

/** Builds dist/ (the entry, its chunks and their source maps), each file replaced whole. */
export declare function bundle(): Promise<void>;
