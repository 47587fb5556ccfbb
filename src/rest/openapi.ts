import { z } from 'zod';
import { queryParamDoc } from './params.ts';
import { pathParamDoc } from './pathParams.ts';
import type { ResponseDoc, RouteDef } from './route.ts';
import { REQUEST_SCHEMAS, RESPONSE_SCHEMAS } from './schemas.ts';
import { aliasesOf, wireTypeOf } from './validation.ts';

type JsonObject = Record<string, unknown>;

/** Where a component schema lives in the document. */
const schemaRef = (name: string): string => `#/components/schemas/${name}`;

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/**
 * Tidies zod's JSON Schema into what OpenAPI 3.0 generators read best: lenient input fields show their wire
 * type, integers are `int64` without zod's ±2^53 bounds, a nullable reference carries `type: object` (3.0.3
 * ignores `nullable` without a type), and response objects do not forbid new fields.
 */
function tidy(io: 'input' | 'output') {
  return ({ zodSchema, jsonSchema }: { zodSchema: z.core.$ZodType; jsonSchema: JsonObject }): void => {
    const wire = wireTypeOf(zodSchema as z.ZodType);
    if (wire && io === 'input') {
      for (const key of Object.keys(jsonSchema)) if (key !== 'nullable' && key !== 'description') delete jsonSchema[key];
      Object.assign(jsonSchema, structuredClone(wire));
    }
    if (jsonSchema.type === 'integer') {
      jsonSchema.format ??= 'int64';
      if (jsonSchema.minimum === -MAX_SAFE) delete jsonSchema.minimum;
      if (jsonSchema.maximum === MAX_SAFE) delete jsonSchema.maximum;
    }
    if (io === 'output' && jsonSchema.additionalProperties === false) delete jsonSchema.additionalProperties;
    // OpenAPI 3.0.3: `nullable` only counts beside a `type`; every named component is an object.
    if (jsonSchema.nullable === true && !jsonSchema.type && Array.isArray(jsonSchema.allOf)) jsonSchema.type = 'object';
    // zod's RFC 3339 pattern says no more than the format does, in 700 characters.
    if (jsonSchema.format === 'date-time') delete jsonSchema.pattern;
    const aliased = aliasesOf(zodSchema as z.ZodType);
    if (aliased) {
      const properties = jsonSchema.properties as Record<string, unknown>;
      for (const alias of aliased.aliases) delete properties[alias];
      const required = ((jsonSchema.required as string[] | undefined) ?? []).filter((f) => !aliased.aliases.includes(f));
      jsonSchema.required = [...new Set([...required, ...aliased.required])];
      // OpenAPI 3.0: `required` may not be empty.
      if (!(jsonSchema.required as string[]).length) delete jsonSchema.required;
      // A field the document requires is a value there (null only ever meant "see the alias").
      for (const field of aliased.required) delete (properties[field] as JsonObject | undefined)?.nullable;
    }
  };
}

/**
 * `{"allOf": [X]}` with nothing beside it is X: zod wraps some references so, and generators and linters take the
 * wrapper for a composition. A one-entry `allOf` with `nullable` beside it stays: that is OpenAPI 3.0's nullable
 * reference (3.0 ignores siblings of `$ref`).
 */
function unwrapAllOf(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(unwrapAllOf);
  if (typeof node !== 'object' || node === null) return node;
  const o = node as JsonObject;
  if (Array.isArray(o.allOf) && o.allOf.length === 1 && Object.keys(o).length === 1) return unwrapAllOf(o.allOf[0]);
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, unwrapAllOf(v)]));
}

/** Named zod schemas as OpenAPI 3.0 component schemas; a named schema inside another is a `$ref`. */
function components(named: Record<string, z.ZodType>, io: 'input' | 'output'): Record<string, JsonObject> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(named)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    target: 'openapi-3.0',
    io,
    unrepresentable: 'any',
    uri: schemaRef,
    override: tidy(io),
  }) as { schemas: Record<string, JsonObject> };
  for (const schema of Object.values(schemas)) delete schema.$id;
  return unwrapAllOf(schemas) as Record<string, JsonObject>;
}

/** A response body schema from a route's component name (`[Name]` = array of Name; `null` too when nullable). */
function bodySchema(name: string, nullable: boolean): JsonObject {
  if (!name.startsWith('[')) return { $ref: schemaRef(name) };
  return { type: 'array', ...(nullable ? { nullable } : {}), items: { $ref: schemaRef(name.slice(1, -1)) } };
}

/** The error answers every route shares (Gitea's `responses` names), all `{"message","url"}`. */
const ERROR_RESPONSES: Record<number, [string, string]> = {
  400: ['error', 'APIError is error format response'],
  401: ['unauthorized', 'authentication required, or the credentials are invalid'],
  403: ['forbidden', 'APIForbiddenError is a forbidden error response'],
  404: ['notFound', 'APINotFound is a not found empty response'],
  405: ['methodNotAllowed', 'the state of the resource does not allow the operation'],
  409: ['conflict', 'APIConflict is a conflict empty response'],
  412: ['preconditionFailed', 'a precondition of the operation failed'],
  413: ['payloadTooLarge', 'the request body is too large'],
  422: ['validationError', 'APIValidationError is error format response related to input validation'],
  423: ['repoArchivedError', 'APIRepoArchivedError is an error that is raised when an archived repo should be modified'],
};

const HEADERS: Record<string, JsonObject> = {
  'X-Total-Count': { description: 'the total number of items in the list', schema: { type: 'integer', format: 'int64' } },
  Link: { description: 'RFC 8288 links to the next, last, first and previous pages', schema: { type: 'string' } },
  'X-Page': { description: 'the current page', schema: { type: 'integer' } },
  'X-PerPage': { description: 'the page size', schema: { type: 'integer' } },
  'X-PageCount': { description: 'the number of pages', schema: { type: 'integer' } },
  'X-HasMore': { description: 'whether there are more pages', schema: { type: 'boolean' } },
};

function listHeaders(kind: RouteDef['list']): JsonObject | undefined {
  if (!kind) return undefined;
  const names = kind === 'count' ? ['X-Total-Count'] : kind === 'link' ? ['X-Total-Count', 'Link'] : Object.keys(HEADERS);
  return Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));
}

function successResponse(doc: ResponseDoc, list: RouteDef['list']): JsonObject {
  if (!doc.schema && !doc.contentType) return doc.description ? { description: doc.description } : { $ref: '#/components/responses/empty' };
  const content = doc.contentType
    ? { [doc.contentType]: { schema: { type: 'string' } } }
    : { 'application/json': { schema: bodySchema(doc.schema ?? '', doc.nullable === true) } };
  const headers = listHeaders(list);
  const name = doc.schema?.startsWith('[') ? `${doc.schema.slice(1, -1)}List` : doc.schema;
  return { description: doc.description ?? name ?? 'OK', ...(headers ? { headers } : {}), content };
}

const TAGS: Record<string, string> = {
  admin: 'Site administration',
  issue: 'Issues, pull request conversations, labels and milestones',
  miscellaneous: 'Server information',
  organization: 'Organizations and teams',
  repository: 'Repositories, pull requests and git data',
  settings: "The instance's settings",
  user: 'Users, their tokens, e-mail addresses and blocks',
};

/**
 * Gitea's `sudo`: told in the description, not as the security schemes Gitea's document lists beside the
 * credentials. As schemes they would be alternatives to the credentials, and generated clients that fill every
 * scheme with the one secret they are given (@hey-api/openapi-ts does) would send the token as a user name to sudo.
 */
const SUDO_NOTE =
  'The Gitea /api/v1 subset Forgegraph implements. Errors are `{"message","url"}` (APIError). ' +
  'A site administrator may act as another user by naming them in the `sudo` query parameter or the `Sudo` header.';

const CREDENTIALS = ['BasicAuth', 'AuthorizationHeaderToken', 'Token', 'AccessToken'];

function security(route: RouteDef): JsonObject[] {
  const signedIn = CREDENTIALS.map((name) => ({ [name]: [] }));
  return route.gate === 'none' ? [{}, ...signedIn] : signedIn;
}

/** The token scopes a route needs, e.g. `write:issue` (Gitea: GET/HEAD need read, other methods write). */
function tokenScopes(route: RouteDef): string[] {
  const level = route.method === 'GET' ? 'read' : 'write';
  return (route.scopes ?? []).map((c) => `${level}:${c}`);
}

function description(route: RouteDef, scopes: string[]): string {
  const lines: string[] = [];
  if (route.gate === 'admin') lines.push('Site administrators only.');
  else if (route.gate === 'token') lines.push('Requires a signed-in user.');
  if (scopes.length) lines.push(`Token scopes: ${scopes.map((s) => `\`${s}\``).join(', ')} (all of them).`);
  return lines.join(' ');
}

function parameters(route: RouteDef): JsonObject[] {
  const out: JsonObject[] = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => {
    const name = m[1] ?? '';
    const doc = pathParamDoc(name, route.params);
    return { name, in: 'path', required: true, description: doc.description, schema: doc.schema };
  });
  const shape = (route.query?.shape ?? {}) as Record<string, z.ZodType>;
  for (const [name, field] of Object.entries(shape)) {
    const doc = queryParamDoc(field);
    const schema = doc?.schema ?? (z.toJSONSchema(field, { target: 'openapi-3.0', io: 'input', unrepresentable: 'any' }) as JsonObject);
    out.push({
      name,
      in: 'query',
      ...(doc?.description ? { description: doc.description } : {}),
      ...(doc?.deprecated ? { deprecated: true } : {}),
      ...(doc?.repeated ? { style: 'form', explode: true } : {}),
      schema,
    });
  }
  return out;
}

function requestBody(route: RouteDef, inputSchemas: Record<string, JsonObject>): JsonObject | undefined {
  if (route.upload) {
    const file = { type: 'string', format: 'binary' };
    // Documented as Gitea documents it (multipart only): with a second, raw content type, orval's fetch client hands
    // the union to fetch without building the form and does not compile. The raw body is still accepted.
    return {
      required: true,
      description: 'The file as the multipart field `attachment`; the file as the raw body (with `?name=`) is accepted too.',
      content: {
        'multipart/form-data': { schema: { type: 'object', properties: { attachment: file }, required: ['attachment'] } },
      },
    };
  }
  if (route.textBody) return { required: true, content: { 'text/plain': { schema: { type: 'string' } } } };
  if (!route.body) return undefined;
  const name = Object.entries(REQUEST_SCHEMAS).find(([, s]) => s === route.body)?.[0];
  const schema = name
    ? { $ref: schemaRef(name) }
    : (z.toJSONSchema(route.body, { target: 'openapi-3.0', io: 'input', unrepresentable: 'any' }) as JsonObject);
  const required = name
    ? (inputSchemas[name]?.required as unknown[] | undefined)?.length
    : (schema.required as unknown[] | undefined)?.length;
  return { required: Boolean(required), content: { 'application/json': { schema } } };
}

function operation(route: RouteDef, inputSchemas: Record<string, JsonObject>): JsonObject {
  const responses: JsonObject = { [route.success.status]: successResponse(route.success, route.list) };
  for (const alt of route.also ?? []) responses[alt.status] = successResponse(alt, undefined);
  // Authentication runs for every request (invalid credentials are 401 anywhere), and bodies have a size limit.
  const errors = new Set([...(route.errors ?? []), 401, ...(route.body || route.upload || route.textBody ? [413] : [])]);
  for (const status of [...errors].sort()) {
    const named = ERROR_RESPONSES[status];
    responses[status] = named ? { $ref: `#/components/responses/${named[0]}` } : { description: 'error' };
  }
  const scopes = tokenScopes(route);
  const body = requestBody(route, inputSchemas);
  const text = description(route, scopes);
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(text ? { description: text } : {}),
    tags: [route.tag],
    ...(route.deprecated ? { deprecated: true } : {}),
    parameters: parameters(route),
    ...(body ? { requestBody: body } : {}),
    responses,
    security: security(route),
    ...(scopes.length ? { 'x-token-scopes': scopes } : {}),
  };
}

/**
 * The OpenAPI 3.0.3 document of the routes we serve, generated from the route table: every path and query
 * parameter a handler reads, request bodies and responses by `$ref` to Gitea's shape names, pagination
 * headers, security with token scopes, deprecations. Nullable fields use `nullable: true`.
 */
export function buildOpenApi(routes: readonly RouteDef[], opts: { version: string; rootUrl: string }): JsonObject {
  const outputSchemas = components(RESPONSE_SCHEMAS, 'output');
  const inputSchemas = components(REQUEST_SCHEMAS, 'input');
  const paths: Record<string, JsonObject> = {};
  for (const route of routes) (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route, inputSchemas);
  const errorResponse = (text: string) => ({
    description: text,
    content: { 'application/json': { schema: { $ref: schemaRef('APIError') } } },
  });
  return {
    openapi: '3.0.3',
    info: {
      title: 'Forgegraph API (Gitea-compatible)',
      version: opts.version,
      description: SUDO_NOTE,
      license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
    },
    servers: [{ url: `${opts.rootUrl}api/v1` }],
    tags: [...new Set(routes.map((r) => r.tag))].sort().map((name) => ({ name, description: TAGS[name] ?? name })),
    paths,
    components: {
      schemas: { ...outputSchemas, ...inputSchemas },
      responses: {
        empty: { description: 'APIEmpty is an empty response' },
        ...Object.fromEntries(Object.values(ERROR_RESPONSES).map(([name, text]) => [name, errorResponse(text)])),
      },
      headers: HEADERS,
      securitySchemes: {
        BasicAuth: { type: 'http', scheme: 'basic', description: 'a password, or a token as the password (or as the user name)' },
        AuthorizationHeaderToken: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: 'API tokens must be prepended with "token" (or "Bearer") followed by a space.',
        },
        Token: { type: 'apiKey', in: 'query', name: 'token', description: 'Deprecated: use AuthorizationHeaderToken.' },
        AccessToken: { type: 'apiKey', in: 'query', name: 'access_token', description: 'Deprecated: use AuthorizationHeaderToken.' },
      },
    },
  };
}
