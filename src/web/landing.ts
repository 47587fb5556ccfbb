import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { REVALIDATE, sendAsset, StaticAsset } from './asset.ts';
import { escapeHtml } from './html.ts';

/** The HTML of `GET /`: what this server offers and where (no external assets). */
export function landingHtml(config: Config): string {
  const base = new URL(config.rootUrl).pathname;
  const link = (path: string, text: string) => `<a href="${escapeHtml(base + path)}">${escapeHtml(text)}</a>`;
  const name = escapeHtml(config.appName);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${name}</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 42em; margin: 3em auto; padding: 0 1em; line-height: 1.5; color: #222; }
code { background: #f3f3f3; padding: 0 .25em; }
li { margin: .4em 0; }
</style>
</head>
<body>
<h1>${name}</h1>
<p>A self-hosted git forge. Version ${escapeHtml(config.packageVersion)} (Gitea API ${escapeHtml(config.version)}).</p>
<ul>
<li>${link('api/graphql', 'GraphiQL')}: explore and query the GraphQL API (<code>${escapeHtml(base)}api/graphql</code>).</li>
<li>${link('api/swagger', 'REST API explorer')}: the Gitea-compatible REST API under <code>${escapeHtml(base)}api/v1</code>
(${link('swagger.v1.json', 'OpenAPI document')}).</li>
<li>git over HTTP: <code>git clone ${escapeHtml(config.rootUrl)}&lt;owner&gt;/&lt;repository&gt;.git</code></li>
<li>${link('api/healthz', 'Health check')} and ${link('api/v1/version', 'API version')}.</li>
</ul>
<p>The first administrator is created on the server's machine with <code>node src/bin/forgegraph.js admin user create</code>
in the checkout (see <code>node src/bin/forgegraph.js --help</code>).</p>
</body>
</html>
`;
}

/** Mounts the landing page at `/`. */
export function mountLanding(server: FastifyInstance, config: Config): void {
  const page = new StaticAsset(Buffer.from(landingHtml(config)), 'text/html; charset=utf-8', REVALIDATE);
  server.get('/', (req, reply) => sendAsset(req, reply, page));
}
