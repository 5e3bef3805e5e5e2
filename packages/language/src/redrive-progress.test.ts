import { describe, expect, it } from 'vitest';
import type { NodeDefinition } from './definition.ts';
import { redriveProgress } from './redrive-progress.ts';

const step = (id: string): NodeDefinition => ({ id, kind: 'noop', args: {} }) as unknown as NodeDefinition;

describe('redriveProgress', () => {
  it('keeps completed iterations whole and drops what an unfinished iteration did, failures and waits', () => {
    const steps = [{ id: 'pages', forEach: '[]', concurrency: 1, steps: [step('fetch'), step('save')] }] as unknown as NodeDefinition[];
    const kept = redriveProgress({ steps }, [
      ['pages[0]', '"a"'],
      ['pages[0].fetch', '"x"'],
      ['pages[1]', '"b"'],
      ['pages[2].fetch', '"c"'],
      ['pages[2].save!', '{"type":"retryable"}'],
      ['pages[2].wait@', '123'],
    ]);
    expect(kept).toEqual([
      ['pages[0]', '"a"'],
      ['pages[1]', '"b"'],
    ]);
  });

  it('drops an unfinished outer iteration with the inner loop iterations it completed', () => {
    const steps = [
      { id: 'outer', forEach: '[]', concurrency: 1, steps: [{ id: 'inner', forEach: '[]', concurrency: 1, steps: [step('get')] }] },
    ] as unknown as NodeDefinition[];
    const kept = redriveProgress({ steps }, [
      ['outer[0]', '1'],
      ['outer[1].inner[0]', '2'],
      ['outer[1].inner[1].get', '3'],
    ]);
    expect(kept).toEqual([['outer[0]', '1']]);
  });

  it('keeps a completed parallel branch, and of an unfinished one only its loops’ completed iterations', () => {
    const steps = [
      {
        id: 'both',
        parallel: [
          [step('a1'), step('a2')],
          [step('b1'), { id: 'loop', forEach: '[]', concurrency: 1, steps: [step('get')] }],
        ],
      },
      step('after'),
    ] as unknown as NodeDefinition[];
    const kept = redriveProgress({ steps }, [
      ['a1', '1'],
      ['a2', '2'],
      ['both{0}', 'null'],
      ['b1', '3'],
      ['loop[0]', '4'],
      ['loop[1]!', '{}'],
    ]);
    expect(kept).toEqual([
      ['a1', '1'],
      ['a2', '2'],
      ['both{0}', 'null'],
      ['loop[0]', '4'],
    ]);
  });

  it('keeps the completed iterations of a loop inside a completed branch of an unfinished parallel', () => {
    const steps = [
      { id: 'both', parallel: [[{ id: 'loop', forEach: '[]', concurrency: 1, steps: [step('get')] }], [step('other')]] },
    ] as unknown as NodeDefinition[];
    const kept = redriveProgress({ steps }, [
      ['loop[0]', '1'],
      ['loop[1]', '2'],
      ['both{0}', 'null'],
      ['other!', '{}'],
    ]);
    expect(kept.map(([address]) => address)).toEqual(['loop[0]', 'loop[1]', 'both{0}']);
  });
});
