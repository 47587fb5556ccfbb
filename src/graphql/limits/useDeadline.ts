import { GraphQLError, type ExecutionArgs } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/**
 * Yoga plugin: an operation still running at the deadline is answered then with an error naming the limit, and
 * its execution is aborted. The executor checks the `signal` so that once it fires no further resolver starts:
 * Yoga's (@graphql-tools/executor, subscriptions) before every field, the compiled one (compiledExecution.ts)
 * before every field that loads; calls already in flight finish unobserved.
 */
export function useDeadline(ms: number): Plugin {
  return {
    onExecute({ executeFn, setExecuteFn }) {
      setExecuteFn(async (execArgs) => {
        // Made when the deadline passes, not for every operation (an error captures a stack trace).
        let error: GraphQLError | undefined;
        const controller = new AbortController();
        const timer = setTimeout(() => {
          error = new GraphQLError(`Request exceeded the deadline of ${ms} ms`, {
            extensions: { code: 'DEADLINE_EXCEEDED', limit: 'deadline', max: ms },
          });
          controller.abort(error);
        }, ms);
        const expired = new Promise<never>((_, reject) => controller.signal.addEventListener('abort', () => reject(error), { once: true }));
        try {
          // The race answers at the deadline even while a resolver is still awaiting something.
          return await Promise.race([
            executeFn({ ...execArgs, signal: controller.signal } as ExecutionArgs & { signal: AbortSignal }),
            expired,
          ]);
        } catch (e) {
          if (error && e === error) return { errors: [error] };
          throw e;
        } finally {
          clearTimeout(timer);
        }
      });
    },
  };
}
