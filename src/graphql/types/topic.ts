// Topics in the graph (GitHub's names): Topic, RepositoryTopic, Repository.repositoryTopics, updateTopics.
import * as topicService from '../../services/repo/topic.ts';
import { builder } from '../builder.ts';
import { writeScope } from '../tokenWriteScopes.ts';
import { filteredBy, inherits } from '../policy.ts';
import { dbId } from '../ids.ts';
import { repoReadWhere, topicReadWhere } from '../../services/repo/visibility.ts';
import { repoRefOf } from '../idInputs.ts';
import { RepositoryRef } from './repository.ts';
import { tokenReadScope } from '../tokenReadScopes.ts';
import { StarrableRef } from './githubInterfaces.ts';

const TopicRef = builder.prismaNode('Topic', {
  description: 'A topic: a lower-case name repositories are tagged with.',
  interfaces: [StarrableRef],
  id: { field: 'id' },
  // node(id:): topics are public, as Gitea's topic search.
  ...filteredBy('topicReadWhere'),
  findUnique: (id) => ({ id: dbId(id), AND: [topicReadWhere()] }),
  nullable: true,
  fields: (t) => ({
    databaseId: t.exposeInt('id', { description: 'The REST id (TopicResponse.id).' }),
    name: t.exposeString('name'),
    repositoryCount: t.exposeInt('repoCount', { description: 'How many repositories carry the topic (Gitea repo_count).' }),
  }),
});
tokenReadScope(TopicRef, 'repository');

const RepositoryTopicRef = builder.prismaNode('RepoTopic', {
  name: 'RepositoryTopic',
  description: 'A topic of a repository.',
  id: { field: 'id' },
  // node(id:): readable with its repository.
  ...filteredBy('repoReadWhere'),
  findUnique: (id, ctx) => ({ id: dbId(id), repo: repoReadWhere(ctx.cx) }),
  nullable: true,
  fields: (t) => ({
    topic: t.relation('topic', { ...inherits('topic names are public with the repository (GET /repos/{o}/{r}/topics)') }),
  }),
});
tokenReadScope(RepositoryTopicRef, 'repository');

builder.prismaObjectFields('Repository', (t) => ({
  repositoryTopics: t.relatedConnection(
    'repoTopics',
    {
      type: RepositoryTopicRef,
      cursor: 'id',
      totalCount: true,
      description: "The repository's topics by name (as GET /api/v1/repos/{owner}/{repo}/topics).",
      ...inherits('topics are shown to whoever may read the repository'),
      query: { orderBy: { topic: { name: 'asc' as const } } },
    },
    { name: 'RepositoryTopicConnection' },
    { name: 'RepositoryTopicEdge' },
  ),
}));

builder.relayMutationField(
  'updateTopics',
  {
    inputFields: (t) => ({
      repositoryId: t.globalID({ required: true, description: 'The repository whose topics are replaced.' }),
      topicNames: t.stringList({ required: true, description: 'The complete new list (trimmed and lower-cased; at most 25).' }),
    }),
  },
  {
    description: "Replace a repository's topics (repository admins; as PUT /api/v1/repos/{owner}/{repo}/topics).",
    ...writeScope('repository'),
    resolve: async (_root, { input }, ctx) => ({
      repository: await topicService.replaceTopics(ctx.cx, await repoRefOf(ctx, input.repositoryId), input.topicNames),
    }),
  },
  { outputFields: (t) => ({ repository: t.field({ type: RepositoryRef, resolve: (p) => p.repository }) }) },
);
