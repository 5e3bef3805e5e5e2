import { describe, expect, it } from 'vitest';
import { createJobLockWatch, LOCK_MARGIN_MS } from './job-lock-watch.ts';

describe('job lock watch', () => {
  const lockDurationMs = 5_000;
  const clock = () => {
    let time = 1_000_000;
    return { now: () => time, advance: (ms: number) => (time += ms) };
  };

  it('holds a lock from its take until its duration less the margin, each renewal starting afresh', () => {
    const { now, advance } = clock();
    const watch = createJobLockWatch({ lockDurationMs, now });
    watch.taken('j1', 't1', now());
    advance(lockDurationMs - LOCK_MARGIN_MS - 1);
    expect(watch.holds('j1')).toBe(true);
    watch.renewed(['j1']);
    advance(lockDurationMs - LOCK_MARGIN_MS - 1);
    expect(watch.holds('j1')).toBe(true);
    advance(1);
    expect(watch.holds('j1')).toBe(false);
  });

  it('counts a lock whose renewal failed as lost at once, until a renewal succeeds', () => {
    const { now } = clock();
    const watch = createJobLockWatch({ lockDurationMs, now });
    watch.taken('j1', 't1', now());
    watch.taken('j2', 't2', now());
    watch.renewalFailed(['j1']);
    expect(watch.holds('j1')).toBe(false);
    expect(watch.holds('j2')).toBe(true);
    watch.renewed(['j1']);
    expect(watch.holds('j1')).toBe(true);
  });

  it('knows no lock of a job it never took or has released, and keeps a newer take of the same job', () => {
    const { now } = clock();
    const watch = createJobLockWatch({ lockDurationMs, now });
    expect(watch.holds('j1')).toBe(false);
    watch.renewed(['j1']);
    expect(watch.holds('j1')).toBe(false);
    watch.taken('j1', 'old', now());
    watch.taken('j1', 'new', now());
    watch.released('j1', 'old');
    expect(watch.holds('j1')).toBe(true);
    watch.released('j1', 'new');
    expect(watch.holds('j1')).toBe(false);
  });
});
