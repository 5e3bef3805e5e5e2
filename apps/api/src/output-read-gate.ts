import { ApiError } from './errors/api-error.ts';

/**
 * Admits reads of outputs (up to 16 Mi characters each) a few at a time, and holds each admission
 * until its answer has been sent, not only read from Redis: a client that stops reading keeps its
 * answer in this process's memory for as long as its connection lasts. At most `perProcess` at
 * once, `perAccount` of them for one account, so that one tenant's slow readers cannot take every
 * turn; the others wait in order of arrival, and after `maxWaitMs` get 503.
 */
export interface OutputReadGate {
  /** Resolves with the function that ends the admission (call it once the answer is sent). */
  enter(account: string): Promise<() => void>;
}

export interface OutputReadGateOptions {
  perProcess: number;
  perAccount: number;
  maxWaitMs: number;
}

interface Waiter {
  account: string;
  admit: () => void;
}

export function createOutputReadGate(options: OutputReadGateOptions): OutputReadGate {
  let inFlight = 0;
  const byAccount = new Map<string, number>();
  const waiting: Waiter[] = [];

  const mayEnter = (account: string) => inFlight < options.perProcess && (byAccount.get(account) ?? 0) < options.perAccount;

  function admitted(account: string): () => void {
    inFlight += 1;
    byAccount.set(account, (byAccount.get(account) ?? 0) + 1);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      inFlight -= 1;
      // This read was counted when it entered, so its account has an entry.
      const left = (byAccount.get(account) ?? 1) - 1;
      if (left === 0) byAccount.delete(account);
      else byAccount.set(account, left);
      // The first waiter whose account has room goes next; one whose account is at its share
      // keeps its place.
      const next = waiting.findIndex((waiter) => mayEnter(waiter.account));
      if (next !== -1) waiting.splice(next, 1)[0]?.admit();
    };
  }

  return {
    enter(account) {
      // Whoever still waits has no room in its account's share (it would have been let in).
      if (mayEnter(account)) return Promise.resolve(admitted(account));
      return new Promise((resolve, reject) => {
        const waiter: Waiter = {
          account,
          admit: () => {
            clearTimeout(timer);
            resolve(admitted(account));
          },
        };
        const timer = setTimeout(() => {
          waiting.splice(waiting.indexOf(waiter), 1);
          reject(new ApiError('SERVICE_UNAVAILABLE', 'Too many reads of outputs are being answered. Retry shortly.', { headers: { 'Retry-After': '2' } }));
        }, options.maxWaitMs);
        waiting.push(waiter);
      });
    },
  };
}
