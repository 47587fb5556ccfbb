// Fields of GitHub's Repository that gh asks for (`gh repo list`, `gh repo view --json …`, `gh pr edit`), answered
// from what Gitea's model has.
import { findAssignableUsers } from '../../services/pull/candidates.ts';
import { arrayConnection } from '../arrayConnection.ts';
import { builder } from '../builder.ts';
import { opt } from '../ids.ts';
import { checkedBy } from '../policy.ts';
import { RepositoryRef } from './repository.ts';
import { UserConnectionRef, UserRef } from './user.ts';

builder.prismaObjectFields(RepositoryRef, (t) => ({
  pushedAt: t.expose('updatedAt', {
    type: 'DateTime',
    nullable: true,
    description: "When the repository was last pushed to: Gitea's updated time, which every push moves.",
  }),
  assignableUsers: t.connection(
    {
      type: UserRef,
      description:
        'Users who can be assigned to issues and pull requests (as GET /api/v1/repos/{owner}/{repo}/assignees: signed-in viewers only), by name.',
      args: { query: t.arg.string({ description: 'Only users whose login or name contains this.' }) },
      ...checkedBy('findAssignableUsers'),
      resolve: async (repo, args, ctx) => arrayConnection(args, await findAssignableUsers(ctx.cx, repo, opt(args.query))),
    },
    UserConnectionRef,
  ),
}));
