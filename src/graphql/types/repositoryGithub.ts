// Fields of GitHub's Repository that gh asks for (`gh repo list`, `gh repo view --json …`), answered from what
// Gitea's model has.
import { builder } from '../builder.ts';
import { RepositoryRef } from './repository.ts';

builder.prismaObjectFields(RepositoryRef, (t) => ({
  pushedAt: t.expose('updatedAt', {
    type: 'DateTime',
    nullable: true,
    description: "When the repository was last pushed to: Gitea's updated time, which every push moves.",
  }),
}));
