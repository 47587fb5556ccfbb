// Gitea topic shapes (modules/structs/repo_topic.go).
import { z } from 'zod';
import { qString } from '../params.ts';

/** Gitea `TopicResponse`: one topic with its repository count. */
export const TopicResponse = z.object({
  id: z.number().int(),
  topic_name: z.string(),
  created: z.string(),
  updated: z.string(),
  repo_count: z.number().int(),
});

/** Gitea `TopicName`: the topic names of a repository. */
export const TopicName = z.object({ topics: z.array(z.string()) });

/** GET /topics/search answers `{"topics": [TopicResponse]}`. */
export const TopicSearchResults = z.object({ topics: z.array(TopicResponse) });

/** Gitea `RepoTopicOptions`: the complete new topic list (null or absent = none). */
export const RepoTopicOptions = z.object({ topics: z.array(z.string()).nullish() });

/** Query of GET /topics/search. */
export const TopicSearchQuery = z.object({ q: qString('keywords to search') });
