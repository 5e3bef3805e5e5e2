import { describe, expect, it } from 'vitest';
import type { AdminIo } from './admin-io.ts';
import { startProgress } from './progress.ts';

function io(errIsTerminal: boolean) {
  const err: string[] = [];
  const value: AdminIo = { out: () => {}, err: (text) => err.push(text), errIsTerminal, readStdin: async () => '' };
  return { value, err };
}

describe('admin progress', () => {
  it('stays silent for a few items', () => {
    const { value, err } = io(false);
    const progress = startProgress(value, 'reading', 10);
    for (let i = 0; i < 10; i += 1) progress.advance();
    progress.done();
    expect(err).toEqual([]);
  });

  it('prints a line at each quarter when stderr is not a terminal', () => {
    const { value, err } = io(false);
    const progress = startProgress(value, 'reading executions', 200);
    for (let i = 0; i < 200; i += 1) progress.advance();
    progress.done();
    expect(err).toEqual(['reading executions: 50/200', 'reading executions: 100/200', 'reading executions: 150/200', 'reading executions: 200/200']);
  });

  it('redraws one line on a terminal and ends it', () => {
    const { value, err } = io(true);
    const progress = startProgress(value, 'reading accounts', 60);
    progress.advance(60);
    progress.done();
    expect(err[0]).toBe('reading accounts: 60/60\r');
    expect(err.at(-1)).toBe('reading accounts: 60/60   ');
  });
});
