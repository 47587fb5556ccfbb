// Wiki pages (Gitea routers/api/v1/repo/wiki.go).
import type { FastifyReply } from 'fastify';
import * as wikiRead from '../../../services/wiki/wikiRead.ts';
import * as wikiWrite from '../../../services/wiki/wikiWrite.ts';
import { toApiWikiCommitList, toApiWikiPage, toApiWikiPageMetaData } from '../../convert/wiki.ts';
import { defineList } from '../../list.ts';
import { Listed } from '../../pagination.ts';
import { qPage, repoRef } from '../../params.ts';
import { defineRoute } from '../../route.ts';
import { CreateWikiPageOptions } from '../../structs/wiki.ts';
import { z } from 'zod';

const PAGE_NAME = { pageName: { schema: { type: 'string' as const }, description: 'name of the page' } };

/** The page name as sent (Gitea's PathParamRaw): still escaped, since its escapes are part of the page's web path. */
function rawPageName(reply: FastifyReply): string {
  const path = reply.request.url.split('?')[0] ?? '';
  return path.slice(path.lastIndexOf('/') + 1);
}

const input = (b: { title?: string | null; content_base64?: string | null; message?: string | null }) => ({
  title: b.title ?? undefined,
  contentBase64: b.content_base64 ?? undefined,
  message: b.message ?? undefined,
});

export const wikiRoutes = [
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/wiki/new',
    operationId: 'repoCreateWikiPage',
    summary: 'Create a wiki page',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    body: CreateWikiPageOptions,
    success: { status: 201, schema: 'WikiPage' },
    errors: [400, 403, 404, 409, 423],
    handler: async ({ cx, params, body }) => toApiWikiPage(await wikiWrite.createWikiPage(cx, repoRef(params), input(body)), cx.config.rootUrl),
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/wiki/page/{pageName}',
    operationId: 'repoGetWikiPage',
    summary: 'Get a wiki page',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    params: PAGE_NAME,
    success: { status: 200, schema: 'WikiPage' },
    errors: [404],
    handler: async ({ cx, params, reply }) => toApiWikiPage(await wikiRead.getWikiPage(cx, repoRef(params), rawPageName(reply)), cx.config.rootUrl),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/repos/{owner}/{repo}/wiki/page/{pageName}',
    operationId: 'repoEditWikiPage',
    summary: 'Edit a wiki page',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    params: PAGE_NAME,
    body: CreateWikiPageOptions,
    success: { status: 200, schema: 'WikiPage' },
    errors: [400, 403, 404, 409, 423],
    handler: async ({ cx, params, body, reply }) =>
      toApiWikiPage(await wikiWrite.editWikiPage(cx, repoRef(params), rawPageName(reply), input(body)), cx.config.rootUrl),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/repos/{owner}/{repo}/wiki/page/{pageName}',
    operationId: 'repoDeleteWikiPage',
    summary: 'Delete a wiki page',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    params: PAGE_NAME,
    success: { status: 204 },
    errors: [403, 404, 409, 423],
    handler: async ({ cx, params, reply }) => {
      await wikiWrite.deleteWikiPage(cx, repoRef(params), rawPageName(reply));
    },
  }),
  defineList({
    path: '/repos/{owner}/{repo}/wiki/pages',
    operationId: 'repoGetWikiPages',
    summary: 'Get all wiki pages',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    headers: 'count',
    schema: '[WikiPageMetaData]',
    errors: [404],
    load: ({ cx, params, page }) => wikiRead.listWikiPages(cx, repoRef(params), page),
    convert: (result, { cx }) => result.items.map((p) => toApiWikiPageMetaData(p, cx.config.rootUrl)),
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/wiki/revisions/{pageName}',
    operationId: 'repoGetWikiPageRevisions',
    summary: 'Get revisions of a wiki page',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    params: PAGE_NAME,
    query: z.object({ page: qPage }),
    list: 'count',
    success: { status: 200, schema: 'WikiCommitList' },
    errors: [404],
    handler: async ({ cx, params, query, reply }) => {
      const result = await wikiRead.listWikiRevisions(cx, repoRef(params), rawPageName(reply), query.page);
      const page = { page: query.page, pageSize: wikiRead.REVISIONS_PAGE_SIZE };
      return new Listed(toApiWikiCommitList(result.items, result.total), result.total, page);
    },
  }),
];
