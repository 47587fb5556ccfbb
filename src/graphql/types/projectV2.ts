// GitHub's Projects (ProjectV2): projects of custom fields whose items are issues, pull requests and drafts. Gitea
// has no such concept (its project boards are GitHub's classic projects: `projects`, `projectCards`), so every
// `projectsV2` and `projectItems` list is empty and no ProjectV2 node exists; the types are GitHub's, so clients
// that ask (gh asks for both kinds of projects before it edits an issue or a pull request) get an answer.
import { arrayConnection } from '../arrayConnection.ts';
import { builder } from '../builder.ts';
import { checkedBy, inherits } from '../policy.ts';
import { sharedConnection } from '../sharedConnection.ts';
import { ClosableRef, type ProjectV2Shape } from './githubInterfaces.ts';
import { IssueRef } from './issue.ts';
import { OrderDirectionEnum } from './orderInput.ts';
import { OrganizationRef } from './organization.ts';
import { PullRequestRef } from './pullRequest.ts';
import { RepositoryRef } from './repository.ts';
import { UserRef } from './user.ts';

const ProjectV2Ref = builder.objectRef<ProjectV2Shape>('ProjectV2');
builder.node(ProjectV2Ref, {
  description: "GitHub's Projects: none exist here (Gitea's project boards are classic projects: `Project`).",
  interfaces: [ClosableRef],
  id: { resolve: (p) => p.id },
  // node(id:) of a ProjectV2 id finds nothing: there are none.
  loadMany: (ids) => ids.map(() => null),
  fields: (t) => ({
    number: t.exposeInt('number'),
    title: t.exposeString('title'),
    closed: t.exposeBoolean('closed'),
    public: t.exposeBoolean('public'),
    resourcePath: t.field({ type: 'URI', resolve: (p) => p.path }),
    url: t.field({ type: 'URI', resolve: (p, _a, ctx) => `${ctx.cx.config.rootUrl}${p.path.slice(1)}` }),
  }),
});

const ProjectV2ItemTypeEnum = builder.enumType('ProjectV2ItemType', {
  description: 'The type of a project item.',
  values: ['DRAFT_ISSUE', 'ISSUE', 'PULL_REQUEST', 'REDACTED'] as const,
});

/** What a ProjectV2Item would hold; no value of it is ever made here. */
interface ProjectV2ItemShape {
  id: number;
  type: 'DRAFT_ISSUE' | 'ISSUE' | 'PULL_REQUEST' | 'REDACTED';
  project: ProjectV2Shape;
}

const ProjectV2ItemRef = builder.objectRef<ProjectV2ItemShape>('ProjectV2Item');
builder.node(ProjectV2ItemRef, {
  description: "An item of one of GitHub's Projects: none exist here.",
  id: { resolve: (i) => i.id },
  loadMany: (ids) => ids.map(() => null),
  fields: (t) => ({
    type: t.field({ type: ProjectV2ItemTypeEnum, resolve: (i) => i.type }),
    isArchived: t.boolean({ resolve: () => false }),
    project: t.field({ type: ProjectV2Ref, ...inherits('the project of a readable item'), resolve: (i) => i.project }),
  }),
});

const ProjectV2ConnectionRef = sharedConnection(ProjectV2Ref, 'ProjectV2Connection');
const ProjectV2ItemConnectionRef = sharedConnection(ProjectV2ItemRef, 'ProjectV2ItemConnection');

const ProjectV2OrderFieldEnum = builder.enumType('ProjectV2OrderField', {
  description: 'Properties by which projects can be ordered.',
  values: ['CREATED_AT', 'NUMBER', 'TITLE', 'UPDATED_AT'] as const,
});

const ProjectV2OrderInput = builder.inputType('ProjectV2Order', {
  description: 'Ways in which lists of projects can be ordered upon return.',
  fields: (t) => ({
    field: t.field({ type: ProjectV2OrderFieldEnum, required: true }),
    direction: t.field({ type: OrderDirectionEnum, required: true }),
  }),
});

const ProjectV2PermissionLevelEnum = builder.enumType('ProjectV2PermissionLevel', {
  description: 'The possible roles of a collaborator on a project.',
  values: ['ADMIN', 'READ', 'WRITE'] as const,
});

const NONE_EXIST = 'Always empty: Gitea has no Projects (ProjectV2); its project boards are `projects`.';

const PROJECTS_V2_ARGS = builder.args((t) => ({
  minPermissionLevel: t.field({ type: ProjectV2PermissionLevelEnum, defaultValue: 'READ' }),
  orderBy: t.field({ type: ProjectV2OrderInput, defaultValue: { field: 'NUMBER', direction: 'DESC' } }),
  query: t.string(),
}));

for (const ref of [RepositoryRef, OrganizationRef, UserRef, IssueRef, PullRequestRef] as const) {
  builder.objectField(ref, 'projectsV2', (t) =>
    t.connection(
      {
        type: ProjectV2Ref,
        description: NONE_EXIST,
        args: PROJECTS_V2_ARGS,
        ...checkedBy('none: Gitea has no ProjectV2'),
        resolve: (_parent, args) => arrayConnection(args, []),
      },
      ProjectV2ConnectionRef,
    ),
  );
}

for (const ref of [IssueRef, PullRequestRef] as const) {
  builder.objectField(ref, 'projectItems', (t) =>
    t.connection(
      {
        type: ProjectV2ItemRef,
        description: NONE_EXIST,
        args: { includeArchived: t.arg.boolean({ defaultValue: true }) },
        ...checkedBy('none: Gitea has no ProjectV2'),
        resolve: (_parent, args) => arrayConnection(args, []),
      },
      ProjectV2ItemConnectionRef,
    ),
  );
}
