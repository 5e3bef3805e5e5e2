import type { RunEvent } from '@ces/client';
import { describe, expect, it } from 'vitest';
import type { CliIo } from './cli-io.ts';
import { createRunDisplay } from './run-display.ts';

function bufferIo(errIsTerminal: boolean): CliIo & { written: string } {
  const io = {
    written: '',
    out() {},
    err(text: string) {
      io.written += text;
    },
    errIsTerminal,
    readFile: async () => '',
  };
  return io;
}

const started = (address: string, attempt = 1): RunEvent => ({ type: 'step.started', time: '1', address, step: address.split('.').at(-1) ?? address, attempt });
const ended = (address: string, outcome: 'succeeded' | 'failed', error?: string): RunEvent => ({
  type: 'step.ended',
  time: '2',
  address,
  step: address,
  attempt: 1,
  outcome,
  durationMs: 42,
  ...(error ? { error } : {}),
});

describe('the run display', () => {
  it('writes one plain line per ended step when stderr is not a terminal', () => {
    const io = bufferIo(false);
    const display = createRunDisplay(io);
    display.show(started('fetch'));
    display.show(ended('fetch', 'succeeded'));
    display.show({ type: 'wait.started', time: '3', address: 'approve', waitFor: 'callback' });
    display.show(ended('each[3].post', 'failed', 'HTTP 500'));
    display.close();
    expect(io.written).toBe('✓ fetch  42 ms\n… approve  waiting for a call back\n✗ each[3].post  42 ms  failed: HTTP 500\n');
  });

  it('on a terminal, keeps a live line for the step running, cleared before each ended step and at the end', () => {
    const io = bufferIo(true);
    let now = 1000;
    const display = createRunDisplay(io, { now: () => now, redrawMs: 60_000 });
    display.show(started('fetch', 2));
    now = 3500;
    display.show(started('parse'));
    expect(io.written).toBe('\r\x1b[2K⠋ fetch (attempt 2)  0 ms\r\x1b[2K⠋ parse  0 ms (+1 more)');
    io.written = '';
    display.show(ended('parse', 'succeeded'));
    expect(io.written).toBe('\r\x1b[2K✓ parse  42 ms\n\r\x1b[2K⠋ fetch (attempt 2)  2.5 s');
    io.written = '';
    display.show({ type: 'execution.ended', time: '9', execution: { id: 'x', choreo: '/C', starttime: '1', endtime: '9', host: 'h', status: 'SUCCESS' } });
    display.show(started('late'));
    expect(io.written).toBe('\r\x1b[2K');
  });

  it('cuts the live line to the terminal width, so that it redraws in place', () => {
    const io = bufferIo(true);
    io.errColumns = 20;
    const display = createRunDisplay(io, { now: () => 0, redrawMs: 60_000 });
    display.show(started('a-rather-long-loop[12].with-a-long-step-name'));
    display.close();
    expect(io.written).toBe('\r\x1b[2K⠋ a-rather-long-lo…\r\x1b[2K');
  });
});
