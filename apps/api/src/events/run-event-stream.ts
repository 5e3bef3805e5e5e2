import type { StoredRunEvent } from '@ces/store';
import type { SSEStreamingApi } from 'hono/streaming';
import type { RunEventFeed } from './run-event-feed.ts';
import { eventFrame, HEARTBEAT_FRAME } from './sse-frames.ts';

/**
 * One Server-Sent Events answer about a run, for the events endpoint and the console's live page
 * alike: frames are written one after another, whatever calls for them, and the answer is done
 * when the run has ended, the client has gone or the feed has closed.
 */
export function runEventStream(stream: SSEStreamingApi) {
  let writing: Promise<unknown> = Promise.resolve();
  let finish: () => void = () => {};
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  stream.onAbort(() => finish());
  const write = (frame: string | Promise<string>) => {
    writing = writing.then(async () => stream.write(await frame)).catch(() => finish());
    return writing;
  };

  return {
    write,
    /** Resolves once every frame asked for so far is written (or the client has gone). */
    written: () => writing,
    /**
     * Follows a running run through the process's one feed from after `afterId`, with heartbeats,
     * until its `execution.ended`, written as `endFrame` makes it; then the answer is done.
     */
    async follow(options: {
      feed: RunEventFeed;
      executionId: string;
      afterId: string | undefined;
      heartbeatMs: number;
      endFrame: (event: StoredRunEvent) => string | Promise<string>;
    }): Promise<void> {
      const heartbeat = setInterval(() => void write(HEARTBEAT_FRAME), options.heartbeatMs);
      let unsubscribe: () => void = () => {};
      try {
        unsubscribe = await options.feed.subscribe(
          options.executionId,
          options.afterId,
          (events) => {
            for (const event of events) {
              if (event.type !== 'execution.ended') {
                void write(eventFrame(event.id, event.type, event.data));
                continue;
              }
              void write(options.endFrame(event)).then(() => finish());
              return;
            }
          },
          () => finish(),
        );
        await finished;
      } finally {
        clearInterval(heartbeat);
        unsubscribe();
      }
      await writing;
    },
  };
}
