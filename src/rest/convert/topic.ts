// Topics → Gitea TopicResponse (convert.ToTopicResponse).
import type { Models } from '../../db/client.ts';
import type { z } from 'zod';
import type { TopicResponse } from '../structs/topic.ts';
import { apiTime } from './time.ts';

type Topic = Models.Topic;

/** Gitea convert.ToTopicResponse. */
export function toApiTopic(topic: Topic): z.infer<typeof TopicResponse> {
  return {
    id: topic.id,
    topic_name: topic.name,
    created: apiTime(topic.createdAt),
    updated: apiTime(topic.updatedAt),
    repo_count: topic.repoCount,
  };
}
