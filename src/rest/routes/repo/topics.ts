// Repository topics and topic search (Gitea routers/api/v1/repo/topic.go).
import * as topicService from '../../../services/repo/topic.ts';
import { toApiTopic } from '../../convert/topic.ts';
import { defineList } from '../../list.ts';
import { repoRef } from '../../params.ts';
import { defineRoute } from '../../route.ts';
import { RepoTopicOptions, TopicSearchQuery } from '../../structs/topic.ts';

const TOPIC = { topic: { schema: { type: 'string' as const }, description: 'name of the topic' } };

export const topicRoutes = [
  defineList({
    path: '/repos/{owner}/{repo}/topics',
    operationId: 'repoListTopics',
    summary: 'Get list of topics that a repository has',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    headers: 'count',
    schema: 'TopicName',
    errors: [404],
    load: ({ cx, params, page }) => topicService.listRepoTopics(cx, repoRef(params), page),
    convert: (result) => ({ topics: result.items.map((t) => t.name) }),
  }),
  defineRoute({
    method: 'PUT',
    path: '/repos/{owner}/{repo}/topics',
    operationId: 'repoUpdateTopics',
    summary: 'Replace list of topics for a repository',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    body: RepoTopicOptions,
    success: { status: 204 },
    errors: [401, 403, 404, 422],
    handler: async ({ cx, params, body }) => {
      await topicService.replaceTopics(cx, repoRef(params), body.topics ?? []);
    },
  }),
  defineRoute({
    method: 'PUT',
    path: '/repos/{owner}/{repo}/topics/{topic}',
    operationId: 'repoAddTopic',
    summary: 'Add a topic to a repository',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    params: TOPIC,
    success: { status: 204 },
    errors: [401, 403, 404, 422],
    handler: async ({ cx, params }) => {
      await topicService.addTopic(cx, repoRef(params), params.topic ?? '');
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/repos/{owner}/{repo}/topics/{topic}',
    operationId: 'repoDeleteTopic',
    summary: 'Delete a topic from a repository',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    params: TOPIC,
    success: { status: 204 },
    errors: [401, 403, 404, 422],
    handler: async ({ cx, params }) => {
      await topicService.deleteTopic(cx, repoRef(params), params.topic ?? '');
    },
  }),
  defineList({
    path: '/topics/search',
    operationId: 'topicSearch',
    summary: 'search topics via keyword',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    query: TopicSearchQuery,
    headers: 'count',
    schema: 'TopicSearchResults',
    errors: [403],
    load: ({ cx, query, page }) => topicService.searchTopics(cx, query.q, page),
    convert: (result) => ({ topics: result.items.map(toApiTopic) }),
  }),
];
