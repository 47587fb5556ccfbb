import { expect } from 'vitest';
import type { TestApp } from './app.ts';

/** Every label's counters (num_issues, num_closed_issues) equal what its IssueLabel rows and their issues say. */
export async function expectExactLabelCounters(t: TestApp): Promise<void> {
  for (const l of await t.db.label.findMany({ orderBy: { id: 'asc' } })) {
    const numIssues = await t.db.issueLabel.count({ where: { labelId: l.id } });
    const numClosedIssues = await t.db.issueLabel.count({ where: { labelId: l.id, issue: { isClosed: true } } });
    expect({ name: l.name, numIssues: l.numIssues, numClosedIssues: l.numClosedIssues }).toEqual({
      name: l.name,
      numIssues,
      numClosedIssues,
    });
  }
}
