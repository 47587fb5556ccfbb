// Markup rendering (Gitea routers/api/v1/misc/markup.go): anyone may render; the answer is HTML.
import * as markupService from '../../../services/markup/markup.ts';
import { defineRoute } from '../../route.ts';
import { MarkdownOption, MarkupOption } from '../../structs/markup.ts';

const HTML = { status: 200, contentType: 'text/html' } as const;
const either = <T>(a: T | null | undefined, b: T | null | undefined): T | undefined => a ?? b ?? undefined;

/** MarkdownOption or MarkupOption, whichever spelling of its fields was sent. */
function options(body: MarkdownOption & { FilePath?: string | null; filepath?: string | null }): markupService.MarkupInput {
  return {
    text: either(body.Text, body.text) ?? '',
    mode: either(body.Mode, body.mode),
    context: either(body.Context, body.context),
    filePath: either(body.FilePath, body.filepath),
    wiki: either(body.Wiki, body.wiki),
  };
}

export const markupRoutes = [
  defineRoute({
    method: 'POST',
    path: '/markdown',
    operationId: 'renderMarkdown',
    summary: 'Render a markdown document as HTML',
    tag: 'miscellaneous',
    scopes: null,
    gate: 'none',
    body: MarkdownOption,
    success: { ...HTML, description: 'MarkdownRender is a rendered markdown document' },
    errors: [422],
    handler: async ({ cx, body, reply }) => {
      const html = await markupService.renderMarkup(cx, options(body));
      return reply.code(200).type('text/html; charset=utf-8').send(html);
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/markdown/raw',
    operationId: 'renderMarkdownRaw',
    summary: 'Render raw markdown as HTML',
    tag: 'miscellaneous',
    scopes: null,
    gate: 'none',
    textBody: true,
    success: { ...HTML, description: 'MarkdownRender is a rendered markdown document' },
    errors: [422],
    handler: async ({ cx, text, reply }) => {
      const html = await markupService.renderMarkdownRaw(cx, text ?? '');
      return reply.code(200).type('text/html; charset=utf-8').send(html);
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/markup',
    operationId: 'renderMarkup',
    summary: 'Render a markup document as HTML',
    tag: 'miscellaneous',
    scopes: null,
    gate: 'none',
    body: MarkupOption,
    success: { ...HTML, description: 'MarkupRender is a rendered markup document' },
    errors: [422],
    handler: async ({ cx, body, reply }) => {
      const html = await markupService.renderMarkup(cx, options(body));
      return reply.code(200).type('text/html; charset=utf-8').send(html);
    },
  }),
];
