import type { Plugin } from 'graphql-yoga';
import { checkSelections } from './checkSelections.ts';

/** Yoga plugin: refuses a parsed document over the breadth or duplicates limit instead of validating it. */
export function useSelectionLimits(limits: { breadth: number; duplicates: number }): Plugin {
  return {
    onValidate({ params, setResult }) {
      const error = checkSelections(params.documentAST, limits);
      if (error) setResult([error]);
    },
  };
}
