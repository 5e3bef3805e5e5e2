import { describe, expect, it } from 'vitest';
import { createLoginThrottle, type LoginThrottle, type Turn } from './login-throttle.ts';
import { must } from '@ces/testing';

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

async function turn(throttle: LoginThrottle, client: string): Promise<Turn> {
  const taken = await throttle.acquire(client);
  if (typeof taken === 'number') throw new Error(`${client} was refused for ${taken} s`);
  return taken;
}

async function fail(throttle: LoginThrottle, client: string, times: number) {
  for (let i = 0; i < times; i += 1) throttle.end(await turn(throttle, client), 1);
}

/** Whether a promise has settled by the time everything already queued has run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('login throttle', () => {
  it('lets a client fail up to the limit, then refuses it until its window ends', async () => {
    const time = clock();
    const throttle = createLoginThrottle({ maxFailures: 3, windowMs: 60_000, now: time.now });
    await fail(throttle, '198.51.100.7', 3);
    expect(throttle.refusedFor('198.51.100.7')).toBe(60);
    expect(await throttle.acquire('198.51.100.7')).toBe(60);
    time.advance(45_500);
    expect(throttle.refusedFor('198.51.100.7')).toBe(15);
    time.advance(14_500);
    expect(throttle.refusedFor('198.51.100.7')).toBe(0);
    await turn(throttle, '198.51.100.7');
  });

  it('keeps clients apart', async () => {
    const throttle = createLoginThrottle({ maxFailures: 2, now: clock().now });
    await fail(throttle, '198.51.100.7', 2);
    expect(throttle.refusedFor('198.51.100.7')).toBeGreaterThan(0);
    expect(throttle.refusedFor('198.51.100.8')).toBe(0);
    await turn(throttle, '198.51.100.8');
  });

  it('counts what a check cost, more than one failure when it hashed more than once', async () => {
    const throttle = createLoginThrottle({ maxFailures: 3, now: clock().now });
    throttle.end(await turn(throttle, 'c'), 2);
    expect(throttle.refusedFor('c')).toBe(0);
    throttle.end(await turn(throttle, 'c'), 2);
    expect(throttle.refusedFor('c')).toBeGreaterThan(0);
  });

  it('runs at most the failures left at once; the others wait for a turn instead of being refused', async () => {
    const throttle = createLoginThrottle({ maxFailures: 3, now: clock().now });
    await fail(throttle, 'c', 1);
    const turns = [throttle.acquire('c'), throttle.acquire('c'), throttle.acquire('c')];
    const first = (await turns[0]) as Turn;
    await turns[1];
    expect(await settled(must(turns[2]))).toBe(false);
    // A success frees a turn for the one waiting.
    throttle.end(first, 0);
    expect(typeof (await turns[2])).toBe('object');
    expect(throttle.refusedFor('c')).toBe(0);
  });

  it('refuses those waiting once the attempts before them have used up the failures', async () => {
    const throttle = createLoginThrottle({ maxFailures: 2, now: clock().now });
    const running = [await turn(throttle, 'c'), await turn(throttle, 'c')];
    const waiting = [throttle.acquire('c'), throttle.acquire('c'), throttle.acquire('c')];
    expect(await settled(must(waiting[0]))).toBe(false);
    for (const taken of running) throttle.end(taken, 1);
    for (const refused of waiting) expect(await refused).toBe(60);
  });

  it('never counts successes, and remembers nothing of a client that has not failed', async () => {
    const throttle = createLoginThrottle({ maxFailures: 2, maxClients: 2, now: clock().now });
    await fail(throttle, 'c', 1);
    for (let i = 0; i < 10; i += 1) throttle.end(await turn(throttle, 'honest'), 0);
    // Had the honest client been remembered, this one would have pushed out the oldest, 'c'.
    await fail(throttle, 'x', 1);
    await fail(throttle, 'c', 1);
    expect(throttle.refusedFor('c')).toBeGreaterThan(0);
  });

  it('starts a fresh window for an attempt still in flight when the old one ends', async () => {
    const time = clock();
    const throttle = createLoginThrottle({ maxFailures: 2, windowMs: 1_000, now: time.now });
    await fail(throttle, 'c', 1);
    const before = await turn(throttle, 'c');
    time.advance(1_000);
    const after = await turn(throttle, 'c');
    throttle.end(before, 1);
    throttle.end(after, 1);
    expect(throttle.refusedFor('c')).toBe(1);
  });

  it('forgets the oldest of the clients not in use past the bound, never one in use', async () => {
    const throttle = createLoginThrottle({ maxFailures: 1, maxClients: 2, now: clock().now });
    await fail(throttle, 'a', 1);
    const running = await turn(throttle, 'b');
    const waitingOnB = throttle.acquire('b');
    await fail(throttle, 'c', 1);
    await fail(throttle, 'd', 1);
    // Three idle, two kept: 'a' goes; 'b' is in use and stays, with its waiter.
    expect(throttle.refusedFor('a')).toBe(0);
    expect(throttle.refusedFor('c')).toBeGreaterThan(0);
    expect(throttle.refusedFor('d')).toBeGreaterThan(0);
    expect(await settled(waitingOnB)).toBe(false);
    throttle.end(running, 1);
    expect(await waitingOnB).toBe(60);
  });

  it('bounds the clients it remembers however their checks end', async () => {
    const throttle = createLoginThrottle({ maxFailures: 1, maxClients: 1, now: clock().now });
    const a = await turn(throttle, 'a');
    const b = await turn(throttle, 'b');
    throttle.end(b, 1);
    throttle.end(a, 1);
    expect(throttle.refusedFor('b')).toBe(0);
    expect(throttle.refusedFor('a')).toBeGreaterThan(0);
    for (let i = 0; i < 100; i += 1) await fail(throttle, `rotating-${i}`, 1);
    expect(throttle.refusedFor('a')).toBe(0);
    expect(throttle.refusedFor('rotating-98')).toBe(0);
    expect(throttle.refusedFor('rotating-99')).toBeGreaterThan(0);
  });

  it('keeps a window whose waiter was woken but has not looked again yet', async () => {
    const throttle = createLoginThrottle({ maxFailures: 3, maxClients: 1, now: clock().now });
    await fail(throttle, 'a', 1);
    const second = await turn(throttle, 'a');
    const waiter = throttle.acquire('a', 2);
    expect(await settled(waiter)).toBe(false);
    const other = await turn(throttle, 'b');
    // In the same tick as the end that wakes the waiter, another client fills the table.
    throttle.end(second, 0);
    throttle.end(other, 1);
    throttle.end((await waiter) as Turn, 2);
    expect(throttle.refusedFor('a')).toBeGreaterThan(0);
  });

  it('serves first come first: a newcomer does not pass a check already waiting', async () => {
    const throttle = createLoginThrottle({ maxFailures: 2, now: clock().now });
    const first = await turn(throttle, 'c');
    const double = throttle.acquire('c', 2);
    const newcomer = throttle.acquire('c');
    expect(await settled(newcomer)).toBe(false);
    throttle.end(first, 0);
    expect(await settled(double)).toBe(true);
    expect(await settled(newcomer)).toBe(false);
    throttle.end((await double) as Turn, 0);
    throttle.end((await newcomer) as Turn, 0);
  });

  it('ends a turn once, however often it is ended', async () => {
    const throttle = createLoginThrottle({ maxFailures: 2, now: clock().now });
    const taken = await turn(throttle, 'c');
    throttle.end(taken, 1);
    throttle.end(taken, 1);
    expect(throttle.refusedFor('c')).toBe(0);
    await fail(throttle, 'c', 1);
    expect(throttle.refusedFor('c')).toBeGreaterThan(0);
  });

  it('remembers a client in the middle of a check even when the table is full of others that are', async () => {
    const throttle = createLoginThrottle({ maxFailures: 2, maxClients: 2, now: clock().now });
    const busy = [await turn(throttle, 'a'), await turn(throttle, 'b')];
    // 'x' is remembered over the limit, so its parallel checks still take turns and are counted.
    const running = [await turn(throttle, 'x'), await turn(throttle, 'x')];
    const third = throttle.acquire('x');
    expect(await settled(third)).toBe(false);
    for (const taken of running) throttle.end(taken, 1);
    expect(await third).toBe(60);
    expect(throttle.refusedFor('x')).toBe(60);
    for (const taken of busy) throttle.end(taken, 0);
  });

  it('holds as many failures as a check may cost hashes, one over at most when it runs alone', async () => {
    const throttle = createLoginThrottle({ maxFailures: 3, now: clock().now });
    const double = await turn(throttle, 'c');
    throttle.end(double, 0);
    const first = (await throttle.acquire('c', 2)) as Turn;
    // 2 of 3 held: a single check fits, a double one waits.
    const single = await turn(throttle, 'c');
    const secondDouble = throttle.acquire('c', 2);
    expect(await settled(secondDouble)).toBe(false);
    throttle.end(single, 0);
    expect(await settled(secondDouble)).toBe(false);
    throttle.end(first, 2);
    // One failure left, nothing running: the double check may go, one over at most.
    const last = await secondDouble;
    expect(typeof last).toBe('object');
    throttle.end(last as Turn, 2);
    expect(throttle.refusedFor('c')).toBe(60);
  });

  it('wakes as many waiting as may start, not all of them each time', async () => {
    const throttle = createLoginThrottle({ maxFailures: 2, now: clock().now });
    const running = [await turn(throttle, 'c'), await turn(throttle, 'c')];
    const waiting = Array.from({ length: 5 }, () => throttle.acquire('c'));
    throttle.end(must(running[0]), 0);
    expect(await settled(must(waiting[0]))).toBe(true);
    for (const later of waiting.slice(1)) expect(await settled(later)).toBe(false);
    // Every one gets its turn in the end, in order.
    let previous = must(running[1]);
    for (const next of waiting.slice(1)) {
      throttle.end(previous, 0);
      previous = (await next) as Turn;
    }
    throttle.end(previous, 0);
    throttle.end((await must(waiting[0])) as Turn, 0);
    expect(throttle.refusedFor('c')).toBe(0);
  });

  it('does nothing with a limit of 0', async () => {
    const throttle = createLoginThrottle({ maxFailures: 0 });
    for (let i = 0; i < 100; i += 1) throttle.end(await turn(throttle, 'c'), 1);
    expect(throttle.refusedFor('c')).toBe(0);
  });
});
