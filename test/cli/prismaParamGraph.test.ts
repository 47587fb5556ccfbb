import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lazyParamGraph } from '../../src/bin/prismaParamGraph.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const RUNTIME = createRequire(path.join(ROOT, 'package.json')).resolve('@prisma/client/runtime/client');

interface Graph {
  inputNodes: { edges: Record<number, unknown> }[];
  outputNodes: { edges: Record<number, unknown> }[];
  roots: Record<string, unknown>;
}
type Reader = new (schema: { strings: string[]; graph: string }) => { deserialize(): Graph };

/**
 * The graph reader class of a Prisma client runtime's source, as a constructor: the class whose `deserialize()`
 * starts by reading the node counts, cut out by its braces (its code holds no brace in a string) and evaluated with
 * the runtime's base64url decoder.
 */
function readerOf(source: string): Reader {
  const start = source.lastIndexOf('=class{', source.indexOf('deserialize(){let{inputNodeCount'));
  expect(start).toBeGreaterThan(0);
  let depth = 0;
  let end = start + '=class'.length;
  do {
    if (source[end] === '{') depth++;
    else if (source[end] === '}') depth--;
    end++;
  } while (depth > 0);
  const body = source.slice(start + 1, end);
  const decoder = /let r=(\w+)\(t\.graph\)/.exec(body)?.[1];
  expect(decoder).toBeDefined();
  return new Function(decoder!, `return ${body}`)((text: string) => Buffer.from(text, 'base64url')) as Reader;
}

/** The parameterization schema Prisma generated for a provider (src/generated/<provider>/internal/class.ts). */
function schemaOf(provider: string) {
  const source = readFileSync(path.join(ROOT, 'src/generated', provider, 'internal/class.ts'), 'utf8');
  const match = /config\.parameterizationSchema = \{\s*strings: JSON\.parse\(("(?:[^"\\]|\\.)*")\),\s*graph: "([^"]*)"/.exec(source);
  expect(match).not.toBeNull();
  return { strings: JSON.parse(JSON.parse(match![1]!)) as string[], graph: match![2]! };
}

/**
 * The bundle decodes Prisma's parameterization graph lazily (src/bin/prismaParamGraph.js). The lazy reader must give
 * every node the edges the released one gives, for both generated clients, and must not decode a node before its
 * edges are read.
 */
describe('lazyParamGraph', () => {
  const released = readFileSync(RUNTIME, 'utf8');
  const lazy = lazyParamGraph(released);

  it('applies to the installed Prisma runtime (else update src/bin/prismaParamGraph.js for the new release)', () => {
    expect(lazy).not.toBeNull();
    expect(lazy).not.toBe(released);
  });

  it('leaves a runtime it was not written for alone', () => {
    expect(lazyParamGraph(released.replace('o[a]=S}r.push({edges:o})', 'o[a]=S}r.push({edges:o,x:1})'))).toBeNull();
    expect(lazyParamGraph('')).toBeNull();
  });

  it.each(['sqlite', 'postgresql'])('decodes the %s graph to the same nodes and edges, each when first read', (provider) => {
    const schema = schemaOf(provider);
    const eager = new (readerOf(released))(schema).deserialize();
    const graph = new (readerOf(lazy!))(schema).deserialize();
    expect(graph.inputNodes.length).toBe(eager.inputNodes.length);
    expect(graph.outputNodes.length).toBe(eager.outputNodes.length);
    expect(eager.inputNodes.length).toBeGreaterThan(1000);
    expect(graph.roots).toEqual(eager.roots);
    // Nothing decoded yet: a node is its offset, its edges a getter of its class.
    expect(graph.inputNodes.every((node) => !Object.hasOwn(node, 'edges'))).toBe(true);
    expect(graph.outputNodes.every((node) => !Object.hasOwn(node, 'edges'))).toBe(true);
    // Read out of order, so a decode that depends on the reader's position after another node would show.
    for (const kind of ['inputNodes', 'outputNodes'] as const) {
      const order = [...graph[kind].keys()].reverse();
      for (const i of order) expect(graph[kind][i]!.edges, `${kind}[${i}]`).toEqual(eager[kind][i]!.edges);
      expect(graph[kind].every((node) => Object.hasOwn(node, 'edges'))).toBe(true);
    }
    const withEdges = eager.inputNodes.filter((node) => Object.keys(node.edges).length > 0).length;
    expect(withEdges).toBeGreaterThan(1000);
  });
});
