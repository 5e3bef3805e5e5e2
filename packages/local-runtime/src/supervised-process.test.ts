import { describe, expect, it } from 'vitest';
import { SupervisedProcess } from './supervised-process.ts';

describe('a supervised process', () => {
  it('reports a command that cannot start as an exit, and the supervisor lives on', async () => {
    const exited = new Promise<{ code: number | null; restarting: boolean }>((resolve) => {
      const child = new SupervisedProcess({
        name: 'missing',
        command: 'ces-no-such-command',
        args: [],
        env: {},
        restart: false,
        onExit: ({ code, restarting }) => resolve({ code, restarting }),
      });
      child.start();
    });
    expect(await exited).toEqual({ code: null, restarting: false });
  });
});
