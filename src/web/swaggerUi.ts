import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { IMMUTABLE, REVALIDATE, sendAsset, StaticAsset } from './asset.ts';
import { escapeHtml } from './html.ts';

/** The files of the installed `swagger-ui-dist` package the page uses (served from node_modules, no CDN). */
const FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

function swaggerUiDist(): { dir: string; version: string } {
  const manifest = createRequire(import.meta.url).resolve('swagger-ui-dist/package.json');
  const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
  return { dir: path.dirname(manifest), version };
}

/**
 * Gitea's `/api/swagger`: Swagger UI over the OpenAPI document at `/swagger.v1.json`, working offline. Assets live
 * under a versioned path, so browsers cache them for good; each is read and compressed on first use.
 */
export function mountSwaggerUi(server: FastifyInstance, config: Config): void {
  const base = new URL(config.rootUrl).pathname;
  const dist = swaggerUiDist();
  const assetsPath = `/assets/swagger-ui-${dist.version}/`;
  const assets = new Map<string, StaticAsset>();
  const asset = (file: string, type: string) => {
    let found = assets.get(file);
    if (!found) {
      found = new StaticAsset(readFileSync(path.join(dist.dir, file)), type, IMMUTABLE);
      assets.set(file, found);
    }
    return found;
  };
  for (const [file, type] of Object.entries(FILES)) {
    server.get(`${assetsPath}${file}`, (req, reply) => sendAsset(req, reply, asset(file, type)));
  }
  const init = new StaticAsset(
    Buffer.from(
      `window.ui = SwaggerUIBundle(${JSON.stringify({ url: `${base}swagger.v1.json`, dom_id: '#swagger-ui', deepLinking: true })});\n`,
    ),
    'text/javascript; charset=utf-8',
    REVALIDATE,
  );
  // The initializer names a URL from the configuration, so it is revalidated rather than versioned.
  server.get('/assets/swagger-ui-init.js', (req, reply) => sendAsset(req, reply, init));

  const href = (file: string) => escapeHtml(`${base}${assetsPath.slice(1)}${file}`);
  const initHref = escapeHtml(`${base}assets/swagger-ui-init.js`);
  const page = new StaticAsset(
    Buffer.from(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(config.appName)} API</title>
<link rel="stylesheet" href="${href('swagger-ui.css')}">
<style>.back { display: block; margin: 1em 2em 0; font-family: sans-serif; }</style>
</head>
<body>
<a class="back" href="${escapeHtml(base)}">&larr; Back to ${escapeHtml(config.appName)}</a>
<div id="swagger-ui"></div>
<script src="${href('swagger-ui-bundle.js')}"></script>
<script src="${initHref}"></script>
</body>
</html>
`),
    'text/html; charset=utf-8',
    REVALIDATE,
  );
  server.get('/api/swagger', (req, reply) => sendAsset(req, reply, page));
}
