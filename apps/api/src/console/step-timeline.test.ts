import type { StepEvent } from '@ces/store';
import { describe, expect, it } from 'vitest';
import { stepTimeline, TIMELINE_PAGE_ROWS } from './step-timeline.ts';

const event = (index: number): StepEvent => ({
  id: 'post',
  address: `each[${index}].post`,
  iteration: index,
  attempt: 1,
  start: 1_000 + index * 10,
  end: 1_005 + index * 10,
  durationMs: 5,
  host: '10.0.0.1',
  outcome: index === 3 ? 'failed' : 'succeeded',
  ...(index === 3 ? { error: 'it failed <here>' } : {}),
});

const render = async (events: StepEvent[], options: Partial<Parameters<typeof stepTimeline>[1]> = {}, dropped?: { count: number; after: number }) =>
  String(
    await stepTimeline(
      { events, ...(dropped ? { dropped } : {}) },
      { page: 1, now: 0, running: false, children: new Map(), withErrors: true, pageLink: (page) => `?steps=${page}`, ...options },
    ),
  );

describe('step timeline', () => {
  it('draws one row per step run with its address, outcome, attempt, host, duration and a bar within the axis', async () => {
    const html = await render([event(0), event(1), event(2), event(3)]);
    expect(html.match(/<tr>/g)).toHaveLength(5);
    expect(html).toContain('<code>each[2].post</code>');
    expect(html).toContain('it failed &lt;here&gt;');
    for (const [, x, width] of html.matchAll(/x="(\d+)" y="0" width="(\d+)"/g)) {
      expect(Number(x) + Number(width)).toBeLessThanOrEqual(1000);
    }
    expect(html).not.toContain('style=');
  });

  it('pages past TIMELINE_PAGE_ROWS rows, and says where the history dropped some', async () => {
    const events = Array.from({ length: TIMELINE_PAGE_ROWS + 5 }, (_, index) => event(index));
    const first = await render(events, {}, { count: 9_000, after: 100 });
    expect(first.match(/<tr>/g)).toHaveLength(TIMELINE_PAGE_ROWS + 1);
    expect(first).toContain('9000 more step runs are not kept here.');
    expect(first).toContain('href="?steps=2"');
    const second = await render(events, { page: 2 });
    expect(second.match(/<tr>/g)).toHaveLength(5 + 1);
    expect(second).toContain('href="?steps=1"');
  });

  it('leaves errors out when asked, and links a child run from its step', async () => {
    const html = await render([event(3)], { withErrors: false, children: new Map([['each[3].post', 'a'.repeat(32)]]) });
    expect(html).not.toContain('it failed');
    expect(html).toContain(`href="/console/runs/${'a'.repeat(32)}"`);
  });
});
