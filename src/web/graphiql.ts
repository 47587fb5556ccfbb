import { REVALIDATE, StaticAsset } from './asset.ts';

/** GraphiQL's options: the page title and the query shown on first load. */
const GRAPHIQL_OPTIONS = { title: 'Forgegraph GraphQL', defaultQuery: '{\n  viewer {\n    login\n  }\n}\n' };

let page: Promise<StaticAsset> | undefined;

/** The GraphiQL page (about 9 MB, everything inlined so it works offline), rendered once and compressed on demand. */
export function graphiqlPage(): Promise<StaticAsset> {
  page ??= import('@graphql-yoga/render-graphiql').then(
    ({ renderGraphiQL }) => new StaticAsset(Buffer.from(renderGraphiQL(GRAPHIQL_OPTIONS)), 'text/html; charset=utf-8', REVALIDATE),
  );
  return page;
}

/** Whether a request is a browser asking for GraphiQL (Yoga's rule: a GET, or its HEAD, that accepts text/html). */
export function wantsGraphiql(method: string, accept: string | undefined): boolean {
  return (method === 'GET' || method === 'HEAD') && (accept ?? '').includes('text/html');
}
