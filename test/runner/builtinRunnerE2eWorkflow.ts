// The workflow of the built-in runner's end-to-end test and the outcome every door must show for it.

export const MESSAGE = 'the file in the repository says hi';

export const CI = `name: CI
on: [push]
env:
  GREETING: hello
jobs:
  read:
    runs-on: e2e
    strategy:
      matrix:
        node: [a, b]
    outputs:
      content: \${{ steps.cat.outputs.content }}
    steps:
      - uses: actions/checkout@v4
      - id: cat
        name: read file
        run: |
          echo "matrix \${{ matrix.node }} at $GITHUB_SHA of $GITHUB_REPOSITORY on \${{ github.ref }}"
          echo "file says: $(cat data/message.txt)"
          echo "content=$(cat data/message.txt)" >> "$GITHUB_OUTPUT"
          echo "FROM_ENV=\${{ env.GREETING }}-\${{ matrix.node }}" >> "$GITHUB_ENV"
          echo "### summary of \${{ matrix.node }}" >> "$GITHUB_STEP_SUMMARY"
      - name: env carried
        working-directory: data
        run: test "$FROM_ENV" = "hello-\${{ matrix.node }}" && echo "env ok $FROM_ENV in $(basename "$PWD")"
  after:
    needs: read
    runs-on: e2e
    steps:
      - run: echo "needs said \${{ needs.read.outputs.content }} with \${{ needs.read.result }}"
  broken:
    runs-on: e2e
    steps:
      - name: allowed to fail
        continue-on-error: true
        run: exit 3
      - name: fails
        run: echo about to fail; exit 1
      - name: not reached
        run: echo never printed
      - name: cleanup
        if: always()
        run: echo cleanup ran after \${{ job.status }}
      - name: foreign action
        if: \${{ always() }}
        uses: actions/setup-node@v4
      - name: bad expression
        if: always()
        run: echo \${{ fromJSON('1') }}
  deploy:
    needs: broken
    runs-on: e2e
    steps:
      - run: echo deploy
`;

/** A job as the REST API lists it. */
export interface Job {
  id: number;
  run_id: number;
  name: string;
  status: string;
  conclusion?: string;
  runner_name?: string;
  steps: Array<{ name: string; number: number; status: string; conclusion?: string }>;
}

/** Each job's name and its final API status and conclusion, as REST lists them. */
export const FINAL_JOBS: ReadonlyArray<readonly [name: string, status: string, conclusion: string]> = [
  ['read (a)', 'completed', 'success'],
  ['read (b)', 'completed', 'success'],
  ['after', 'completed', 'success'],
  ['broken', 'completed', 'failure'],
  ['deploy', 'completed', 'skipped'],
];

/** The commit status each job ends with (Gitea toCommitStatus: a skipped job is a success). */
export const FINAL_CONTEXTS: Record<string, string> = {
  'CI / read (a) (push)': 'success',
  'CI / read (b) (push)': 'success',
  'CI / after (push)': 'success',
  'CI / broken (push)': 'failure',
  'CI / deploy (push)': 'success',
};
