import { describe, expect, it } from 'vitest';
import {
  callbackAddress,
  callbackTokenAddress,
  enclosingLoopAddress,
  failureAddress,
  isInsideIteration,
  iterationAddress,
  loopStepAddress,
  parseProgressAddress,
  stepAddress,
  wakeAddress,
} from './progress-address.ts';

describe('progress addresses', () => {
  it('builds the addresses of steps and iterations, nested', () => {
    expect(stepAddress('', 'fetch')).toBe('fetch');
    const outer = iterationAddress('', 'a', 1);
    expect(outer).toBe('a[1]');
    const inner = iterationAddress(outer, 'b', 2);
    expect(inner).toBe('a[1].b[2]');
    expect(stepAddress(inner, 'c')).toBe('a[1].b[2].c');
    expect(isInsideIteration('a[1].b[2].c', inner)).toBe(true);
    expect(isInsideIteration('a[1].b[2].c', outer)).toBe(true);
    expect(isInsideIteration('a[1].b[20].c', inner)).toBe(false);
    expect(isInsideIteration('a[1]', outer)).toBe(false);
  });

  it('reads back what each entry holds, of which step or iteration', () => {
    const address = 'pages[3].fetch';
    expect(parseProgressAddress(address)).toEqual({ holds: 'result', of: address, id: 'fetch' });
    expect(parseProgressAddress(failureAddress(address))).toEqual({ holds: 'failure', of: address, id: 'fetch' });
    expect(parseProgressAddress(wakeAddress(address))).toEqual({ holds: 'wake', of: address, id: 'fetch' });
    expect(parseProgressAddress(callbackTokenAddress(address))).toEqual({ holds: 'callback-token', of: address, id: 'fetch' });
    expect(parseProgressAddress(callbackAddress('wait-here'))).toEqual({ holds: 'callback', of: 'wait-here', id: 'wait-here' });
    expect(parseProgressAddress('pages[3]')).toEqual({ holds: 'result', of: 'pages[3]', id: 'pages', iteration: 3 });
    expect(parseProgressAddress('')).toBeUndefined();
  });

  it('finds the loop of a step directly inside an iteration, and back', () => {
    expect(enclosingLoopAddress('each[3].post', 'post', 3)).toBe('each');
    expect(enclosingLoopAddress('a[1].b[2].c', 'c', 2)).toBe('a[1].b');
    expect(enclosingLoopAddress('each[3].post', 'post', 4)).toBeUndefined();
    expect(enclosingLoopAddress('try.post', 'post', 0)).toBeUndefined();
    expect(loopStepAddress('a[1].b', 2, 'c')).toBe('a[1].b[2].c');
  });
});
