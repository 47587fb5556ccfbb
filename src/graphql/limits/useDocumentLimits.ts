import { parse, type Source } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { DocumentLimits } from './limits.ts';
import { scanDocument } from './scanDocument.ts';

/**
 * Yoga plugin: refuses a document over a size, token, alias, directive or nesting limit before it is parsed
 * (so before any validation), for GET and POST alike. It runs ahead of Yoga's parser cache, so refused documents
 * are never cached; accepted ones are parsed with `maxTokens` as a second guard.
 */
export function useDocumentLimits(limits: DocumentLimits): Plugin {
  const parseWithinLimits: typeof parse = (source, options) => parse(source, { ...options, maxTokens: limits.tokens });
  return {
    onParse({ params, setParseFn }) {
      const source = params.source as string | Source;
      const error = scanDocument(typeof source === 'string' ? source : source.body, limits);
      if (error) throw error;
      setParseFn(parseWithinLimits);
    },
  };
}
