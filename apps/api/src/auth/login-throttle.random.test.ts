import { describe, expect, it } from 'vitest';
import { createLoginThrottle, type Turn } from './login-throttle.ts';
import { must } from '@ces/testing';

/** A small seeded generator, so that a failing sequence can be replayed. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

const settle = async () => {
  for (let i = 0; i < 4; i += 1) await new Promise((resolve) => setImmediate(resolve));
};

interface Taken {
  client: string;
  hashes: number;
  turn: Turn;
}

/**
 * Random interleavings of checks starting and ending, failures and the clock moving, for a few
 * clients, with what can be seen from outside checked after every step: the hashes a client has
 * running never exceed its failures left (one check alone may go over), a refusal comes only after
 * the client reported enough failures within the window, and every wait ends once the running
 * checks do.
 */
async function drive(seed: number, options: { maxFailures: number; maxClients: number; clients: number }) {
  const next = random(seed);
  const windowMs = 1_000;
  let now = 0;
  const throttle = createLoginThrottle({ ...options, windowMs, now: () => now });
  const running: Taken[] = [];
  const failuresAt = new Map<string, number[]>();
  let waiting = 0;
  const problems: string[] = [];

  const recentFailures = (client: string) => (failuresAt.get(client) ?? []).filter((at) => at > now - windowMs).length;

  for (let step = 0; step < 150 && problems.length === 0; step += 1) {
    const roll = next();
    if (roll < 0.45) {
      const client = `c${Math.floor(next() * options.clients)}`;
      const hashes = next() < 0.6 ? 1 : 2;
      waiting += 1;
      void throttle.acquire(client, hashes).then((outcome) => {
        waiting -= 1;
        if (typeof outcome === 'number') {
          if (recentFailures(client) < options.maxFailures) problems.push(`step ${step}: ${client} refused after ${recentFailures(client)} failures`);
          return;
        }
        const mine = running.filter((taken) => taken.client === client);
        const held = mine.reduce((sum, taken) => sum + taken.hashes, hashes);
        if (mine.length > 0 && held > options.maxFailures) problems.push(`step ${step}: ${client} runs ${held} hashes at once`);
        running.push({ client, hashes, turn: outcome });
      });
    } else if (roll < 0.8 && running.length > 0) {
      const [taken] = running.splice(Math.floor(next() * running.length), 1);
      const failures = Math.floor(next() * (must(taken).hashes + 1));
      for (let i = 0; i < failures; i += 1) failuresAt.set(must(taken).client, [...(failuresAt.get(must(taken).client) ?? []), now]);
      throttle.end(must(taken).turn, failures);
    } else if (roll < 0.9) {
      // Only once every answer due has come, so that each is checked at the time it was given.
      await settle();
      now += Math.floor(next() * windowMs * 0.7);
    }
    if (next() < 0.7) await settle();
    else await Promise.resolve();
  }
  // Every wait ends once the running checks do.
  for (let round = 0; round < 1_000 && (running.length > 0 || waiting > 0) && problems.length === 0; round += 1) {
    await settle();
    const taken = running.shift();
    if (taken) throttle.end(taken.turn, 0);
    else if (waiting > 0) problems.push(`${waiting} waiting with nothing running`);
  }
  await settle();
  if (waiting > 0) problems.push(`${waiting} still waiting at the end`);
  return problems;
}

describe('login throttle under random interleavings', () => {
  it.each([
    { maxFailures: 1, maxClients: 3, clients: 4 },
    { maxFailures: 2, maxClients: 2, clients: 3 },
    { maxFailures: 3, maxClients: 1, clients: 2 },
  ])('keeps its promises with %o', async (options) => {
    for (let seed = 1; seed <= 150; seed += 1) {
      expect(await drive(seed, options), `seed ${seed}`).toEqual([]);
    }
  });
});
