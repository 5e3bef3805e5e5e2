import type { components } from './generated/api.ts';

export type Execution = components['schemas']['Execution'];
export type ExecutionStatus = Execution['status'];

/** How a step, an iteration or a run's wait ended. */
export type Outcome = 'succeeded' | 'failed' | 'stopped';

interface EventBase {
  /** Epoch milliseconds, as text (as every time of the interface). */
  time: string;
  /** The event's id in its stream: resuming after it with Last-Event-ID. Absent from polled events. */
  id?: string;
}

interface StepPlace {
  /** Where it ran: `fetch`, `each[3].post`. */
  address: string;
  /** Inside a loop: the innermost iteration's index. */
  iteration?: number | string;
  /** 1 for the first attempt, then 2, 3… */
  attempt?: number | string;
  host?: string;
}

interface Ending {
  outcome: Outcome;
  durationMs: number | string;
  /** When failed or stopped. */
  error?: string;
}

/** What `GET …/choreo-executions/<id>/events` sends about a run, one per Server-Sent Event. */
export type RunEvent =
  | (EventBase & StepPlace & { type: 'step.started'; step: string })
  | (EventBase & StepPlace & Ending & { type: 'step.ended'; step: string })
  | (EventBase & StepPlace & { type: 'iteration.started' })
  | (EventBase & StepPlace & Ending & { type: 'iteration.ended' })
  | (EventBase & { type: 'wait.started'; address: string; waitFor: 'time' | 'callback' | 'child'; until?: string; child?: string })
  | (EventBase & { type: 'child.started'; address: string; child: string })
  | (EventBase & { type: 'execution.ended'; execution: Execution });

export type RunEventType = RunEvent['type'];

const TERMINAL: readonly ExecutionStatus[] = ['SUCCESS', 'ERROR', 'TERMINATED_MANUALLY', 'TERMINATED_LIMIT'];

/** Whether the status is one of the four that never change again. */
export function isEnded(status: ExecutionStatus): boolean {
  return TERMINAL.includes(status);
}
