import type { ParamSchema } from './params.ts';

/** How the document shows one path parameter. */
export interface PathParamDoc {
  schema: ParamSchema;
  description: string;
}

const str = (description: string): PathParamDoc => ({ schema: { type: 'string' }, description });
const int = (description: string): PathParamDoc => ({ schema: { type: 'integer', format: 'int64' }, description });

/** The usual meaning of each path parameter name (Gitea's swagger wording). */
const BY_NAME: Record<string, PathParamDoc> = {
  owner: str('owner of the repo'),
  repo: str('name of the repo'),
  org: str('name of the organization'),
  username: str('username of the user'),
  user: str('username of the user whose tracked times are listed'),
  collaborator: str('username of the collaborator'),
  assignee: str('username of the assignee'),
  index: int('index of the issue or pull request'),
  id: int('id of the resource'),
  branch: str('branch name (may contain slashes)'),
  filepath: str('path of the dir, file, symlink or submodule in the repo'),
  base: str('base branch of the pull request'),
  head: str('head branch of the pull request (may contain slashes)'),
  sha: str('sha of the commit or object'),
  token: str('token to be deleted, identified by ID and if not available by name'),
  diffType: { schema: { type: 'string', enum: ['diff', 'patch'] }, description: 'whether the output is diff or patch' },
};

/** A `{id}` that may also be a name (labels and milestones: Gitea looks up the id, then the name). */
export function idOrName(what: string): PathParamDoc {
  return str(`id of the ${what}, or its name`);
}

/** A `{id}` naming a specific kind of resource. */
export function idOf(what: string): PathParamDoc {
  return int(`id of the ${what}`);
}

/** The document of a path parameter: the route's own, else the usual one of its name, else a string. */
export function pathParamDoc(name: string, own: Record<string, PathParamDoc> | undefined): PathParamDoc {
  return own?.[name] ?? BY_NAME[name] ?? str(name);
}
