import { z } from 'zod';

/** Gitea `CreateForkOption` (no binding rules: the service validates the name). */
export const CreateForkOption = z.object({
  organization: z.string().nullish(),
  name: z.string().nullish(),
});
export type CreateForkOption = z.infer<typeof CreateForkOption>;
