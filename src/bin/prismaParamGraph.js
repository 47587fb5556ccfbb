// Prisma's parameterization graph, decoded node by node when a query first needs it instead of all at once when the
// client is built. Applied by the bundle (src/bin/bundle.js) to Prisma's client runtime; plain JavaScript like it.
//
// Prisma 7's client engine turns a query's values into parameters, so that one cached plan serves every value, by
// walking a graph of the schema's input and output types (`config.parameterizationSchema` of the generated client:
// a list of names and a base64 string of varints). Its constructor decodes the whole graph at once: one object per
// node, whose `edges` are keyed by indices into the names, sparse integers that V8 keeps as dictionary elements, and
// one object per edge. For Forgegraph's schema that is ~4,000 input nodes and 16 MB of the idle heap (a heap
// snapshot's dominator tree, Node 24), while the queries the server runs reach a few hundred nodes. Decoded lazily,
// a node is its byte offset until its edges are first read; they are then decoded exactly as before and kept. The
// server idles ~12 MB smaller and starts with less CPU (`npx tsx bench/coldStart.ts`, README "Runtime flags").
//
// The change is to minified code of one Prisma release, matched as text. When an upgrade changes that text the
// bundle is built without it (esbuild prints a warning) and test/bin/prismaParamGraph.test.ts fails, naming this file.

/** The two decoders of Prisma 7.10's graph reader (class of `deserialize()` in runtime/client.js), as released. */
const EAGER = {
  input:
    '#u(t){let r=[];for(let n=0;n<t;n++){let i=this.#i(),o={};for(let s=0;s<i;s++){let a=this.#i(),u=this.#a(),m=this.#o(),P=this.#o(),S={flags:this.#s()};u!==0&&(S.scalarMask=u),m!==void 0&&(S.childNodeId=m),P!==void 0&&(S.enumNameIndex=P),o[a]=S}r.push({edges:o})}return r}',
  output:
    '#l(t){let r=[];for(let n=0;n<t;n++){let i=this.#i(),o={};for(let s=0;s<i;s++){let a=this.#i(),u=this.#o(),m=this.#o(),P={};u!==void 0&&(P.argsNodeId=u),m!==void 0&&(P.outputNodeId=m),o[a]=P}r.push({edges:o})}return r}',
};

/**
 * The same decoders, lazy. `#r` is the reader's byte offset, `#i` a varint, `#o` an optional varint, `#a` a uint16,
 * `#s` a byte. Each node records where it starts and the reader skips it; a node's `edges` getter decodes it at that
 * offset with the released loop body (the reader's offset saved and restored) and replaces itself with the result.
 */
const LAZY = {
  input:
    '#u(t){const R=this;class N{constructor(p){this.p=p}get edges(){const q=R.#r;R.#r=this.p;let i=R.#i(),o={};for(let s=0;s<i;s++){let a=R.#i(),u=R.#a(),m=R.#o(),P=R.#o(),S={flags:R.#s()};u!==0&&(S.scalarMask=u),m!==void 0&&(S.childNodeId=m),P!==void 0&&(S.enumNameIndex=P),o[a]=S}R.#r=q;Object.defineProperty(this,"edges",{value:o});return o}}let r=[];for(let n=0;n<t;n++){r.push(new N(this.#r));let i=this.#i();for(let s=0;s<i;s++){this.#i(),this.#r+=2,this.#i(),this.#i(),this.#r+=1}}return r}',
  output:
    '#l(t){const R=this;class N{constructor(p){this.p=p}get edges(){const q=R.#r;R.#r=this.p;let i=R.#i(),o={};for(let s=0;s<i;s++){let a=R.#i(),u=R.#o(),m=R.#o(),P={};u!==void 0&&(P.argsNodeId=u),m!==void 0&&(P.outputNodeId=m),o[a]=P}R.#r=q;Object.defineProperty(this,"edges",{value:o});return o}}let r=[];for(let n=0;n<t;n++){r.push(new N(this.#r));let i=this.#i();for(let s=0;s<i;s++){this.#i(),this.#i(),this.#i()}}return r}',
};

/** Prisma's client runtime with the lazy decoders, or null when its source is not the release this was written for. */
export function lazyParamGraph(source) {
  if (source.split(EAGER.input).length !== 2 || source.split(EAGER.output).length !== 2) return null;
  return source.replace(EAGER.input, () => LAZY.input).replace(EAGER.output, () => LAZY.output);
}
