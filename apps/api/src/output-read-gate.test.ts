import { describe, expect, it } from 'vitest';
import { createOutputReadGate } from './output-read-gate.ts';

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('the gate of reads of outputs', () => {
  it('admits a few at once, an account its share of them, and the others in order as answers end', async () => {
    const gate = createOutputReadGate({ perProcess: 3, perAccount: 2, maxWaitMs: 60_000 });
    const admitted: string[] = [];
    const enter = (name: string, account: string) =>
      gate.enter(account).then((leave) => {
        admitted.push(name);
        return leave;
      });

    const a1 = await enter('a1', 'a');
    await enter('a2', 'a');
    // The account has its share: its third waits, while another account still gets in.
    const a3 = enter('a3', 'a');
    const b1 = await enter('b1', 'b');
    // The process is full now: b2 waits too, behind a3.
    const b2 = enter('b2', 'b');
    await turn();
    expect(admitted).toEqual(['a1', 'a2', 'b1']);

    // b1 ends: a3's account still has its share, so b2, behind it, goes first.
    b1();
    await b2;
    expect(admitted).toEqual(['a1', 'a2', 'b1', 'b2']);
    a1();
    a1(); // Ending twice frees one place only.
    await a3;
    expect(admitted).toEqual(['a1', 'a2', 'b1', 'b2', 'a3']);
    const c1 = enter('c1', 'c');
    await turn();
    expect(admitted).toHaveLength(5);
    (await b2)();
    await c1;
    expect(admitted.at(-1)).toBe('c1');
  });

  it('answers 503 with Retry-After to a read that waited too long, and forgets it', async () => {
    const gate = createOutputReadGate({ perProcess: 1, perAccount: 1, maxWaitMs: 50 });
    const leave = await gate.enter('a');
    await expect(gate.enter('b')).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', headers: { 'Retry-After': '2' } });
    leave();
    // The one that gave up holds no place: the next is admitted at once.
    (await gate.enter('b'))();
  });
});
