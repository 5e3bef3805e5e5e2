import { describe, expect, it, vi } from 'vitest';
import { ChoreoFailError, StepAbortedError } from '@ces/language';
import { runStep, testLibraryOptions } from './run-step-for-test.ts';

describe('control steps', () => {
  it('control.wait waits the given time', async () => {
    vi.useFakeTimers();
    try {
      let done = false;
      const waiting = runStep('control.wait', { milliseconds: '1000' }).then((result) => {
        done = true;
        return result;
      });
      await vi.advanceTimersByTimeAsync(999);
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await waiting).toEqual({ waitedMs: 1000 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('control.wait rejects promptly when its signal aborts, with the reason', async () => {
    const controller = new AbortController();
    const waiting = runStep('control.wait', { milliseconds: 60_000 }, testLibraryOptions, controller.signal);
    controller.abort('cancelled');
    const error = await waiting.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StepAbortedError);
    expect((error as StepAbortedError).reason).toBe('cancelled');
  });

  it('control.fail fails only when its condition holds', async () => {
    await expect(runStep('control.fail', { message: 'stop here' })).rejects.toEqual(new ChoreoFailError('stop here'));
    await expect(runStep('control.fail', { message: 'stop', when: ' TRUE ' })).rejects.toMatchObject({ retryable: false });
    expect(await runStep('control.fail', { message: 'stop', when: 'false' })).toEqual({ failed: false });
  });

  it('noop returns its arguments', async () => {
    expect(await runStep('noop', { a: '1', b: [2] })).toEqual({ a: '1', b: [2] });
  });
});
