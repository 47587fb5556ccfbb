// The one publish interface of live updates (GraphQL subscriptions): topics on an EventTarget, as graphql-yoga's
// createPubSub uses one, so a shared target (@graphql-yoga/redis-event-target) fans events out across instances.

/** What changed on an issue or pull request, as the issueEvents / pullRequestEvents subscriptions report it. */
export type LiveAction = 'CREATED' | 'EDITED' | 'CLOSED' | 'REOPENED' | 'COMMENTED' | 'LABELED' | 'MERGED' | 'REVIEWED';

/** A live event: plain JSON (a shared event target serializes it). */
export type LiveEvent =
  | { kind: 'issue'; action: LiveAction; repoId: number; issueId: number; actorId: number; commentId: number | null }
  | { kind: 'notification'; userId: number; notificationId: number };

/** The topic of a repository's issue and pull request events. */
export const repoTopic = (repoId: number): string => `repo:${repoId}`;
/** The topic of a user's new notifications. */
export const notificationTopic = (userId: number): string => `notifications:${userId}`;

/** Thrown from a subscriber's stream when it fell `limit` events behind: the client reads too slowly. */
export class LiveQueueOverflowError extends Error {
  /** What transports branch on (they may not import this layer). */
  readonly code = 'LIVE_QUEUE_OVERFLOW';
  constructor(readonly limit: number) {
    super(`subscription queue overflow: more than ${limit} events were waiting for a slow client (limit live.queueSize); resubscribe`);
    this.name = 'LiveQueueOverflowError';
  }
}

/** What travels on the target: the event and the installation that published it. */
interface Envelope {
  installation: string;
  event: LiveEvent;
}

/**
 * Publishes committed changes to live subscribers and hands each subscriber its own bounded queue: publishing
 * never waits for a subscriber, and one that falls `queueSize` events behind is ended with LiveQueueOverflowError
 * instead of holding memory or slowing others.
 *
 * A shared target (Redis) may be shared by other installations too: every topic is prefixed with this
 * installation's namespace (src/db/installation.ts), and each event carries it, so a subscriber never receives
 * another installation's event (whose ids would name rows of its own database).
 */
export class LiveBus {
  readonly #target: EventTarget;
  readonly #namespace: string;
  readonly #listening: (channel: string) => Promise<void>;
  readonly #open = new Map<string, number>();
  readonly #streams = new Set<() => void>();

  /**
   * In this process only; or on a `shared` target (Redis) under the installation's `namespace`, whose `listening`
   * says when a channel's new listeners hear every instance (LiveTarget.listening).
   */
  constructor(shared?: { target: EventTarget; namespace: string; listening?: (channel: string) => Promise<void> }) {
    this.#target = shared?.target ?? new EventTarget();
    this.#namespace = shared?.namespace ?? '';
    this.#listening = shared?.listening ?? (async () => undefined);
  }

  /**
   * The events of `topic` from now on, as `subscribe` gives them, returned once every instance's events reach the
   * stream (on Redis: once Redis confirmed the channel). What a subscription serves: a client whose stream is open
   * misses nothing published after that, by any instance.
   */
  async open(topic: string, opts: { queueSize: number; signal?: AbortSignal }): Promise<AsyncIterableIterator<LiveEvent>> {
    const events = this.subscribe(topic, opts);
    // A stream that already ended (its signal aborted) needs nothing, and its channel is not subscribed again.
    if (this.#open.has(topic)) await this.#listening(this.#namespace + topic);
    return events;
  }

  /** How many streams of this process listen to `topic` now (operations, tests). */
  subscriberCount(topic: string): number {
    return this.#open.get(topic) ?? 0;
  }

  /** Ends every stream (shutdown): their subscriptions complete and their connections can close. */
  close(): void {
    for (const stop of [...this.#streams]) stop();
  }

  /** Delivers `event` to the subscribers of `topic` (after the change committed). */
  publish(topic: string, event: LiveEvent): void {
    const detail: Envelope = { installation: this.#namespace, event };
    this.#target.dispatchEvent(new CustomEvent(this.#namespace + topic, { detail }));
  }

  /** The events of `topic` from now on, until `return()` (the client left), `signal` aborts, or the queue overflows. */
  subscribe(topic: string, opts: { queueSize: number; signal?: AbortSignal }): AsyncIterableIterator<LiveEvent> {
    const queue: LiveEvent[] = [];
    let waiting: ((r: IteratorResult<LiveEvent>) => void) | null = null;
    let done = false;
    let failure: Error | null = null;
    const target = this.#target;
    const open = this.#open;
    const streams = this.#streams;
    const namespace = this.#namespace;
    const channel = namespace + topic;

    const stop = () => {
      if (done) return;
      done = true;
      streams.delete(stop);
      target.removeEventListener(channel, listener);
      const left = (open.get(topic) ?? 1) - 1;
      if (left > 0) open.set(topic, left);
      else open.delete(topic);
      opts.signal?.removeEventListener('abort', stop);
      // A waiting reader has an empty queue, so no overflow is pending for it: it just ends.
      if (waiting) {
        const resolve = waiting;
        waiting = null;
        resolve({ value: undefined, done: true });
      }
    };
    function listener(e: Event): void {
      const detail = (e as CustomEvent<Envelope | undefined>).detail;
      // Another installation's event on a channel of ours (a misconfigured namespace) is never delivered.
      if (done || detail?.installation !== namespace) return;
      const { event } = detail;
      if (waiting) {
        const resolve = waiting;
        waiting = null;
        resolve({ value: event, done: false });
        return;
      }
      if (queue.length >= opts.queueSize) {
        failure = new LiveQueueOverflowError(opts.queueSize);
        queue.length = 0;
        stop();
        return;
      }
      queue.push(event);
    }
    target.addEventListener(channel, listener);
    open.set(topic, (open.get(topic) ?? 0) + 1);
    streams.add(stop);
    opts.signal?.addEventListener('abort', stop, { once: true });

    return {
      [Symbol.asyncIterator]() {
        return this;
      },
      next(): Promise<IteratorResult<LiveEvent>> {
        const value = queue.shift();
        if (value !== undefined) return Promise.resolve({ value, done: false });
        if (failure) {
          const err = failure;
          failure = null;
          return Promise.reject(err);
        }
        if (done) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => {
          waiting = resolve;
        });
      },
      return(): Promise<IteratorResult<LiveEvent>> {
        stop();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
