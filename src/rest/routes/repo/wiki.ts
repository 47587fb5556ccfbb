// Wiki pages (Gitea routers/api/v1/repo/wiki.go).
import { z } from 'zod';
import * as wikiRead from '../../../services/wiki/wikiRead.ts';
import * as wikiWrite from '../../../services/wiki/wikiWrite.ts';
import { toApiWikiCommitList, toApiWikiPage, toApiWikiPageMetaData } from '../../convert/wiki.ts';
import { defineList } from '../../list.ts';
import { setTotalCount } from '../../pagination.ts';
import { qPage, repoRef } from '../../params.ts';
import { defineRoute } from '../../route.ts';
import { CreateWikiPageOptions } from '../../structs/wiki.ts';

const PAGE_NAME = { pageName: { schema: { type: 'string' as const }, description: 'name of the page' } };

/** The page name as sent (Gitea's PathParamRaw): still escaped, since its escapes are part of the page's web path. */
const rawPageName = (raw: Record<string, string> | undefined): string => raw?.pageName ?? '';

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
    handler: async ({ cx, params, body }) =>
      toApiWikiPage(await wikiWrite.createWikiPage(cx, repoRef(params), input(body)), cx.config.rootUrl),
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
    rawParams: true,
    success: { status: 200, schema: 'WikiPage' },
    errors: [404],
    handler: async ({ cx, params, rawParams }) =>
      toApiWikiPage(await wikiRead.getWikiPage(cx, repoRef(params), rawPageName(rawParams)), cx.config.rootUrl),
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
    rawParams: true,
    body: CreateWikiPageOptions,
    success: { status: 200, schema: 'WikiPage' },
    errors: [400, 403, 404, 409, 423],
    handler: async ({ cx, params, body, rawParams }) =>
      toApiWikiPage(await wikiWrite.editWikiPage(cx, repoRef(params), rawPageName(rawParams), input(body)), cx.config.rootUrl),
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
    rawParams: true,
    success: { status: 204 },
    errors: [403, 404, 409, 423],
    handler: async ({ cx, params, rawParams }) => {
      await wikiWrite.deleteWikiPage(cx, repoRef(params), rawPageName(rawParams));
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
    rawParams: true,
    // Gitea's page size here is fixed (its COMMITS_RANGE_SIZE, 50): `page` only, and X-Total-Count.
    query: z.object({ page: qPage }),
    success: { status: 200, schema: 'WikiCommitList', description: 'WikiCommitList (X-Total-Count: the number of revisions)' },
    errors: [404],
    handler: async ({ cx, params, query, rawParams, reply }) => {
      const result = await wikiRead.listWikiRevisions(cx, repoRef(params), rawPageName(rawParams), query.page);
      setTotalCount(reply, result.total);
      return toApiWikiCommitList(result.items, result.total);
    },
  }),
];
