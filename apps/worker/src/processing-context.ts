import type { NewExecution } from '@ces/store';

/** What the processor asks of the queue for one job: nothing of BullMQ leaks past this interface. */
export interface ProcessingContext {
  executionId: string;
  /** The execution as accepted, when the queue carries it (instant Choreos only). */
  accepted?: NewExecution;
  /** Puts the execution back in the queue for another worker (graceful shutdown). */
  handBack(): Promise<void>;
  /**
   * Queues the execution again, to be taken the usual way, once its job is complete: an instant run
   * whose end was refused because a worker had taken the execution meanwhile.
   */
  requeue(): Promise<void>;
  /**
   * Puts the execution back to wait until `untilMs` (epoch milliseconds), then to be taken the usual
   * way: its account had its maximum of executions executing, or its run waits (suspended).
   */
  defer(untilMs: number): Promise<void>;
  /** Makes a deferred or suspended execution due at once, to be taken (and ended) now. */
  undefer(): Promise<void>;
}

/**
 * How processing one job came out:
 * - `ended`: the execution reached a terminal status here (an instant run: its end was sent, and
 *   is settled in the background, see ExecutionProcessor.endsSettled);
 * - `not-running`: nothing to do, it had ended (or ended elsewhere meanwhile, terminated say);
 * - `handed-back`: stopped at a step boundary for shutdown and given back to the queue;
 * - `deferred`: not taken, its account has its maximum executing; it waits in the queue again;
 * - `suspended`: its run waits (a durable wait): stored, it waits among the delayed jobs until due;
 * - `superseded`: another worker took the execution over (this worker lost its job lock, as
 *   after a long Redis outage), or may take it (the lock was not renewed in time); this run
 *   stopped without touching the execution or its job.
 */
export type ProcessResult = 'ended' | 'not-running' | 'handed-back' | 'deferred' | 'suspended' | 'superseded';
