import { z } from 'zod';
import type { RouteDef } from './route.ts';
import { Branch, ContentsResponse, GitBlobResponse } from './structs/git.ts';
import { RepoCollaboratorPermission } from './structs/collaborator.ts';
import { Comment, TimelineComment } from './structs/comment.ts';
import { Cron } from './structs/cron.ts';
import { DeployKey } from './structs/deployKey.ts';
import { Issue, Milestone } from './structs/issue.ts';
import { Label } from './structs/label.ts';
import { Organization } from './structs/org.ts';
import { Project } from './structs/project.ts';
import { ChangedFile, Commit, PullRequest } from './structs/pull.ts';
import { Reaction } from './structs/reaction.ts';
import { Repository, SearchResults } from './structs/repo.ts';
import { PullReview, PullReviewComment } from './structs/review.ts';
import { Team } from './structs/team.ts';
import { StopWatch, TrackedTime } from './structs/trackedTime.ts';
import { AccessToken, Email, User, UserSearchResults } from './structs/user.ts';

const schemas: Record<string, z.ZodType> = {
  User,
  Email,
  AccessToken,
  UserSearchResults,
  Cron,
  Organization,
  Team,
  Repository,
  SearchResults,
  Label,
  Issue,
  Milestone,
  Project,
  Comment,
  TimelineComment,
  Reaction,
  TrackedTime,
  StopWatch,
  PullRequest,
  ChangedFile,
  Commit,
  PullReview,
  PullReviewComment,
  DeployKey,
  RepoCollaboratorPermission,
  Branch,
  ContentsResponse,
  GitBlobResponse,
  ServerVersion: z.object({ version: z.string() }),
  GeneralAPISettings: z.object({
    max_response_items: z.number().int(),
    default_paging_num: z.number().int(),
    default_git_trees_per_page: z.number().int(),
    default_max_blob_size: z.number().int(),
    default_max_response_size: z.number().int(),
  }),
  GeneralUISettings: z.object({ default_theme: z.string(), allowed_reactions: z.array(z.string()), custom_emojis: z.array(z.string()) }),
  GeneralRepoSettings: z.object({
    mirrors_disabled: z.boolean(),
    http_git_disabled: z.boolean(),
    migrations_disabled: z.boolean(),
    stars_disabled: z.boolean(),
    time_tracking_disabled: z.boolean(),
    lfs_disabled: z.boolean(),
  }),
  APIError: z.object({ message: z.string(), url: z.string() }),
};

type JsonObject = Record<string, unknown>;

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonObject {
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonObject;
  delete out.$schema;
  return out;
}

function responseSchema(name: string): JsonObject {
  const array = name.startsWith('[');
  const ref = { $ref: `#/components/schemas/${array ? name.slice(1, -1) : name}` };
  return array ? { type: 'array', items: ref } : ref;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'APIError is error format response',
  401: 'authentication required or invalid credentials',
  403: 'APIForbiddenError is a forbidden error response',
  404: 'APINotFound is a not found empty response',
  409: 'conflict',
  412: 'precondition failed',
  422: 'APIValidationError is error format response related to input validation',
  423: 'APIRepoArchivedError is an error that is raised when an archived repo should be modified',
};

/** An OpenAPI 3.1 document generated from the route definitions we actually serve. */
export function buildOpenApi(routes: readonly RouteDef[], opts: { version: string; rootUrl: string }): JsonObject {
  const paths: Record<string, JsonObject> = {};
  for (const r of routes) {
    const parameters: JsonObject[] = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    if (r.query) {
      const q = jsonSchema(r.query, 'input');
      for (const [name, schema] of Object.entries((q.properties ?? {}) as Record<string, JsonObject>)) {
        parameters.push({ name, in: 'query', schema });
      }
    }
    const responses: JsonObject = {
      [r.success.status]: r.success.schema
        ? { description: 'OK', content: { 'application/json': { schema: responseSchema(r.success.schema) } } }
        : { description: 'empty response' },
    };
    for (const status of r.errors ?? []) {
      responses[status] = {
        description: STATUS_TEXT[status] ?? 'error',
        content: { 'application/json': { schema: responseSchema('APIError') } },
      };
    }
    const op: JsonObject = {
      operationId: r.operationId,
      summary: r.summary,
      tags: [r.tag],
      parameters,
      responses,
      ...(r.scopes ? { 'x-token-scopes': r.scopes } : {}),
    };
    if (r.body) op.requestBody = { content: { 'application/json': { schema: jsonSchema(r.body, 'input') } } };
    (paths[r.path] ??= {})[r.method.toLowerCase()] = op;
  }
  const components: Record<string, JsonObject> = {};
  for (const [name, schema] of Object.entries(schemas)) components[name] = jsonSchema(schema, 'output');
  return {
    openapi: '3.1.0',
    info: {
      title: 'Forgegraph API (Gitea-compatible)',
      version: opts.version,
      description: 'The Gitea /api/v1 subset Forgegraph implements.',
    },
    servers: [{ url: `${opts.rootUrl}api/v1` }],
    components: {
      schemas: components,
      securitySchemes: {
        BasicAuth: { type: 'http', scheme: 'basic' },
        Token: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'token <token>' },
        AccessToken: { type: 'apiKey', in: 'query', name: 'access_token' },
        SudoHeader: { type: 'apiKey', in: 'header', name: 'Sudo' },
      },
    },
    security: [{ BasicAuth: [] }, { Token: [] }, { AccessToken: [] }],
    paths,
  };
}
