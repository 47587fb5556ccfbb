// Stop requests (a cancel, the job's timeout) for the steps that run after them: each step waits on the next one.

export class Stopper {
  private waiters: Array<() => void> = [];

  /** Resolves at the next `fire()` (not at earlier ones: a step that runs after a cancel, like `if: always()`, runs). */
  next(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  fire(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}
