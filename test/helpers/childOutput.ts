// What a child process (git, ssh) printed and how it exited, for tests that run real clients.
import type { Readable, Writable } from 'node:stream';

/** A started process: the streams of node's ChildProcess (or of src/git's GitProcess) and its end. */
export interface StartedProcess {
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly stderr: Readable;
  on(event: 'close', listener: (code: number | null) => void): this;
  on(event: 'error', listener: (err: Error) => void): this;
}

/** The output of a finished process. */
export interface ProcessOutput {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Ends the process's stdin (after `input`, if any) and collects its output until it exits. */
export function childOutput(child: StartedProcess, input?: string): Promise<ProcessOutput> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}
