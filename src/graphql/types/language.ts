// Languages in the graph (GitHub's names): Language, Repository.languages (LanguageConnection with edge `size`
// and `totalSize`) and Repository.primaryLanguage, from the service of GET /repos/{o}/{r}/languages.
import { resolveArrayConnection } from '@pothos/plugin-relay';
import { languageColor } from '../../services/repo/languageDetect.ts';
import { languagesOfRepo, readableLanguages, type LanguageSize } from '../../services/repo/languages.ts';
import { builder, MAX_CONNECTION_SIZE } from '../builder.ts';
import { checkedBy, filteredBy, inherits } from '../policy.ts';
import { tokenReadScope } from '../tokenReadScopes.ts';
import { totalOf } from '../totalCount.ts';
import { directionOf, orderInput } from './orderInput.ts';

const LanguageRef = builder.objectRef<{ name: string }>('Language');
builder.node(LanguageRef, {
  description: 'A programming or markup language (linguist names and colours).',
  // node(id:) by name: a language some repository whose code the viewer can read is known to use.
  ...filteredBy('repoReadWhere'),
  id: { resolve: (l) => l.name },
  loadMany: (names, ctx) => readableLanguages(ctx.cx, names),
  fields: (t) => ({
    name: t.exposeString('name'),
    color: t.string({
      nullable: true,
      description: 'The colour linguist gives the language, `#rrggbb`.',
      resolve: (l) => languageColor(l.name),
    }),
  }),
});
tokenReadScope(LanguageRef, 'repository');

const LanguageOrderInput = orderInput('LanguageOrder', ['SIZE'] as const, 'language connections');

builder.prismaObjectFields('Repository', (t) => ({
  languages: t.connection(
    {
      type: LanguageRef,
      nullable: true,
      description:
        'The languages of the default branch by size, largest first unless `orderBy` says otherwise; null when the viewer cannot read the code.',
      ...checkedBy('languagesOfRepo'),
      args: { orderBy: t.arg({ type: LanguageOrderInput }) },
      resolve: async (repo, args, ctx) => {
        const sizes = await languagesOfRepo(ctx.cx, repo);
        if (!sizes) return null;
        const nodes = sizes.map((s: LanguageSize) => ({ name: s.language, size: s.size }));
        if (args.orderBy && directionOf(args.orderBy) === 'asc') nodes.reverse();
        const conn = resolveArrayConnection({ args, defaultSize: MAX_CONNECTION_SIZE, maxSize: MAX_CONNECTION_SIZE }, nodes);
        return { ...conn, total: nodes.length, totalSize: nodes.reduce((sum, n) => sum + n.size, 0) };
      },
    },
    {
      name: 'LanguageConnection',
      fields: (c) => ({
        totalCount: c.int({ resolve: totalOf }),
        totalSize: c.int({
          description: 'Bytes of all languages together.',
          resolve: (conn) => ('totalSize' in conn ? Number(conn.totalSize) : 0),
        }),
      }),
    },
    {
      name: 'LanguageEdge',
      fields: (e) => ({
        size: e.int({ description: 'Bytes of this language.', resolve: (edge) => (edge.node as { size: number }).size }),
      }),
    },
  ),
  primaryLanguage: t.field({
    type: LanguageRef,
    nullable: true,
    description: 'The largest language, as last computed (the Repository JSON `language`).',
    ...inherits('the REST Repository JSON shows `language` with the repository'),
    select: { languageStats: { where: { isPrimary: true }, select: { language: true }, take: 1 } },
    resolve: (repo) => (repo.languageStats[0] ? { name: repo.languageStats[0].language } : null),
  }),
}));
