import type { RunEventLog, StoredRunEvent } from '@ces/store';

/** What a run's events tell beside its step history: where children were started, and what it waits for now. */
export interface RunNotes {
  /** Child execution ids by the address of the step that started them. */
  children: Map<string, string>;
  /** The wait the run is in, when its latest event began one. */
  waiting?: { address: string; waitFor: 'time' | 'callback' | 'child'; until?: number; child?: string };
  /** The id of the latest event read: a live page follows the events after it. */
  lastEventId?: string;
}

/**
 * Reads a run's kept events (bounded) once, parsing only the few that matter here (the type is
 * read apart): a run of ten thousand iterations costs one read and no parse of its progress events.
 */
export async function readRunNotes(log: RunEventLog, executionId: string): Promise<RunNotes> {
  const events = await log.read(executionId, undefined);
  const children = new Map<string, string>();
  for (const event of events) {
    if (event.type !== 'child.started') continue;
    const data = parse(event);
    if (typeof data.address === 'string' && typeof data.child === 'string') children.set(data.address, data.child);
  }
  const lastEventId = events.at(-1)?.id;
  const latest = events.filter((event) => event.type !== 'execution.ended').at(-1);
  if (latest?.type !== 'wait.started') return { children, ...(lastEventId ? { lastEventId } : {}) };
  const data = parse(latest);
  const until = Number(data.until);
  return {
    children,
    ...(lastEventId ? { lastEventId } : {}),
    waiting: {
      address: String(data.address ?? ''),
      waitFor: data.waitFor === 'callback' || data.waitFor === 'child' ? data.waitFor : 'time',
      ...(Number.isFinite(until) && until > 0 ? { until } : {}),
      ...(typeof data.child === 'string' ? { child: data.child } : {}),
    },
  };
}

function parse(event: StoredRunEvent): Record<string, unknown> {
  try {
    return JSON.parse(event.data) as Record<string, unknown>;
  } catch {
    return {};
  }
}
