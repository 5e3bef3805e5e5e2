import { tickExecutionId } from '@ces/store';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startInProcessApp, type InProcessApp } from './test-support/in-process-app.ts';

// Schedules as a well-behaved client uses them, in process: written, shown, paused, resumed,
// triggered, backfilled and deleted, in JSON and XML. No worker: runs stay RUNNING, which is what
// the overlap policy looks at.
const xml = new XMLParser({ ignoreDeclaration: true, parseTagValue: false, isArray: (name) => ['time', 'input', 'schedule'].includes(name) });
const HMAC = '/Library/Utilities/Hashing/HMAC';
const HOUR = 3_600_000;
const hmacSchedule = (more: Record<string, unknown> = {}) =>
  JSON.stringify({
    choreo: HMAC,
    inputs: [
      { name: 'Text', value: 'tick' },
      { name: 'Key', value: 'k' },
    ],
    ...more,
  });

describe('schedules in process', () => {
  let t: InProcessApp;

  beforeAll(async () => {
    t = await startInProcessApp({ redisUrl: inject('redisUrl') });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('creates a cron schedule in a time zone (201) with its next five ticks, replaces it (200), lists and shows it', async () => {
    const { alice } = t.credentials;
    const created = await t.call('PUT', '/schedules/morning', alice, { body: hmacSchedule({ cron: '0 9 * * 1-5', timezone: 'Europe/Berlin', note: 'daily' }) });
    expect(created.status).toBe(201);
    const body = await created.json();
    expect(body).toMatchObject({
      name: 'morning',
      choreo: HMAC,
      cron: '0 9 * * 1-5',
      timezone: 'Europe/Berlin',
      overlap: 'skip',
      catchupWindowSeconds: 3600,
      note: 'daily',
      state: 'active',
      fired: 0,
      skipped: 0,
      missed: 0,
    });
    expect(body.nextTimes).toHaveLength(5);
    for (const time of body.nextTimes as string[]) {
      const at = new Date(Number(time));
      expect(at.getTime()).toBeGreaterThan(Date.now());
      // 09:00 in Berlin is 07:00 or 08:00 UTC, on a weekday.
      expect([7, 8]).toContain(at.getUTCHours());
      expect([1, 2, 3, 4, 5]).toContain(at.getUTCDay());
    }
    const replaced = await t.call('PUT', '/schedules/morning', alice, { body: hmacSchedule({ every: '30m', overlap: 'allow-all' }) });
    expect(replaced.status).toBe(200);
    const again = await replaced.json();
    expect(again).toMatchObject({ every: '30m', overlap: 'allow-all' });
    expect(again.cron).toBeUndefined();
    expect(Number(again.nextTimes[1]) - Number(again.nextTimes[0])).toBe(1_800_000);

    await t.call('PUT', '/schedules/another', alice, { body: hmacSchedule({ every: '1h', paused: true }) });
    const list = await (await t.call('GET', '/schedules', alice)).json();
    expect(list.schedules.map((schedule: { name: string; state: string }) => [schedule.name, schedule.state])).toEqual([
      ['another', 'paused'],
      ['morning', 'active'],
    ]);
    const shown = await (await t.call('GET', '/schedules/morning', alice)).json();
    expect(shown).toEqual(again);
  });

  it('pauses with a note (no next ticks) and resumes from the next tick', async () => {
    const { alice } = t.credentials;
    await t.call('PUT', '/schedules/pausable', alice, { body: hmacSchedule({ every: '1m' }) });
    const paused = await t.call('POST', '/schedules/pausable/pause', alice, { body: JSON.stringify({ note: 'maintenance' }) });
    expect(paused.status).toBe(200);
    expect(await paused.json()).toMatchObject({ state: 'paused', stateNote: 'maintenance', nextTimes: [] });
    const resumed = await t.call('POST', '/schedules/pausable/resume', alice);
    expect(resumed.status).toBe(200);
    const body = await resumed.json();
    expect(body.state).toBe('active');
    expect(body.stateNote).toBeUndefined();
    expect(Number(body.nextTimes[0])).toBeGreaterThan(Date.now() - 1_000);
    expect(Number(body.nextTimes[0]) % 60_000).toBe(0);
  });

  it('triggers a run now (202, as an async run), whose record names the schedule and tick; under skip a second trigger starts nothing', async () => {
    const { alice } = t.credentials;
    await t.call('PUT', '/schedules/on-demand', alice, { body: hmacSchedule({ every: '1h' }) });
    const before = Date.now();
    const triggered = await t.call('POST', '/schedules/on-demand/trigger', alice);
    expect(triggered.status).toBe(202);
    const run = await triggered.json();
    expect(triggered.headers.get('location')).toContain(`/choreo-executions/${run.id}`);
    expect(run.execution).toMatchObject({ id: run.id, choreo: HMAC, status: 'RUNNING', schedule: 'on-demand' });
    const scheduledTime = Number(run.execution.scheduledTime);
    expect(scheduledTime).toBeGreaterThanOrEqual(before);
    expect(run.id).toBe(tickExecutionId('acme', 'on-demand', scheduledTime));

    const status = await (await t.call('GET', `/choreo-executions/${run.id}`, alice)).json();
    expect(status.execution).toMatchObject({ schedule: 'on-demand', scheduledTime: String(scheduledTime) });

    const second = await t.call('POST', '/schedules/on-demand/trigger', alice);
    expect(second.status).toBe(409);
    const shown = await (await t.call('GET', '/schedules/on-demand', alice)).json();
    expect(shown).toMatchObject({ fired: 1, skipped: 1, lastRun: { id: run.id, scheduledTime: String(scheduledTime), status: 'RUNNING' } });
  });

  it('backfills a past range once, oldest first: allow-all starts every tick, skip only the first while it runs', async () => {
    const { alice } = t.credentials;
    const from = Math.floor(Date.now() / HOUR) * HOUR - 5 * HOUR;
    const to = from + 2 * HOUR;
    await t.call('PUT', '/schedules/every-hour', alice, { body: hmacSchedule({ every: '1h', overlap: 'allow-all' }) });
    const filled = await t.call('POST', '/schedules/every-hour/backfill', alice, { body: JSON.stringify({ from, to }) });
    expect(filled.status).toBe(202);
    const body = await filled.json();
    expect(body).toEqual({
      ticks: 3,
      started: [0, 1, 2].map((index) => ({ id: tickExecutionId('acme', 'every-hour', from + index * HOUR), scheduledTime: String(from + index * HOUR) })),
      skipped: 0,
      existing: 0,
    });
    const again = await (
      await t.call('POST', '/schedules/every-hour/backfill', alice, { body: JSON.stringify({ from: String(from), to: String(to) }) })
    ).json();
    expect(again).toEqual({ ticks: 3, started: [], skipped: 0, existing: 3 });
    const history = await (await t.call('GET', `/choreo-executions?status=RUNNING&choreo=${HMAC}&limit=100`, alice)).json();
    const listed = history.executions.find((entry: { id: string }) => entry.id === body.started[0].id);
    expect(listed).toMatchObject({ schedule: 'every-hour', scheduledTime: String(from) });

    await t.call('PUT', '/schedules/hourly-skip', alice, { body: hmacSchedule({ every: '1h' }) });
    const skipped = await (await t.call('POST', '/schedules/hourly-skip/backfill', alice, { body: JSON.stringify({ from, to }) })).json();
    expect(skipped).toMatchObject({ ticks: 3, skipped: 2, existing: 0 });
    expect(skipped.started).toEqual([{ id: tickExecutionId('acme', 'hourly-skip', from), scheduledTime: String(from) }]);
    expect(await (await t.call('GET', '/schedules/hourly-skip', alice)).json()).toMatchObject({ fired: 1, skipped: 2 });
  });

  it('under buffer-one a trigger while the last run goes on waits: 202 BUFFERED under its run id, no Location; a third is 409 and skipped', async () => {
    const { alice } = t.credentials;
    await t.call('PUT', '/schedules/buffered', alice, { body: hmacSchedule({ every: '1h', overlap: 'buffer-one' }) });
    const first = await (await t.call('POST', '/schedules/buffered/trigger', alice)).json();
    expect(first.execution.status).toBe('RUNNING');

    const waiting = await t.call('POST', '/schedules/buffered/trigger', alice);
    expect(waiting.status).toBe(202);
    expect(waiting.headers.get('location')).toBeNull();
    const body = await waiting.json();
    const scheduledTime = Number(body.execution.scheduledTime);
    expect(body).toEqual({
      id: tickExecutionId('acme', 'buffered', scheduledTime),
      execution: {
        id: body.id,
        choreo: HMAC,
        starttime: '',
        endtime: '',
        host: '',
        status: 'BUFFERED',
        schedule: 'buffered',
        scheduledTime: String(scheduledTime),
      },
    });
    // Its run starts once the first has ended, when a worker looks: none runs here.
    expect((await t.call('GET', `/choreo-executions/${body.id}`, alice)).status).toBe(404);
    const shown = await (await t.call('GET', '/schedules/buffered', alice)).json();
    expect(shown).toMatchObject({ fired: 1, skipped: 0, bufferedTime: String(scheduledTime), lastRun: { id: first.id } });
    // Brought forward in the due set: a worker looks at it within a second, not at its next tick.
    const due = Number(await t.redis.zscore(t.keys.schedulesDue(), 'acme\nbuffered'));
    expect(due).toBeLessThanOrEqual(Date.now() + 1_000);

    const third = await t.call('POST', '/schedules/buffered/trigger', alice);
    expect(third.status).toBe(409);
    expect(await (await t.call('GET', '/schedules/buffered', alice)).json()).toMatchObject({ fired: 1, skipped: 1, bufferedTime: String(scheduledTime) });
  });

  it('a backfill under buffer-one while a run goes on leaves the oldest tick waiting and skips the others', async () => {
    const { alice } = t.credentials;
    const from = Math.floor(Date.now() / HOUR) * HOUR - 5 * HOUR;
    const to = from + 2 * HOUR;
    await t.call('PUT', '/schedules/buffered-fill', alice, { body: hmacSchedule({ every: '1h', overlap: 'buffer-one' }) });
    const running = await (await t.call('POST', '/schedules/buffered-fill/trigger', alice)).json();
    expect(running.execution.status).toBe('RUNNING');
    const filled = await (await t.call('POST', '/schedules/buffered-fill/backfill', alice, { body: JSON.stringify({ from, to }) })).json();
    expect(filled).toEqual({
      ticks: 3,
      started: [],
      skipped: 2,
      existing: 0,
      buffered: { id: tickExecutionId('acme', 'buffered-fill', from), scheduledTime: String(from) },
    });
    expect(await (await t.call('GET', '/schedules/buffered-fill', alice)).json()).toMatchObject({ fired: 1, skipped: 2, bufferedTime: String(from) });
    const again = await (await t.call('POST', '/schedules/buffered-fill/backfill', alice, { body: JSON.stringify({ from, to }) })).json();
    // The same tick waits still; the others are skipped again.
    expect(again).toEqual(filled);
  });

  it('speaks XML both ways', async () => {
    const { alice } = t.credentials;
    const body =
      `<schedule><choreo>${HMAC}</choreo><inputs><input><name>Text</name><value>x</value></input><input><name>Key</name><value>k</value></input></inputs>` +
      '<cron>0 0 6 * * *</cron><timezone>America/New_York</timezone><overlap>buffer-one</overlap><catchupWindowSeconds>60</catchupWindowSeconds><paused>false</paused></schedule>';
    const created = await t.call('PUT', '/schedules/from-xml', alice, { body, headers: { 'content-type': 'application/xml' }, accept: 'application/xml' });
    expect(created.status).toBe(201);
    const parsed = xml.parse(await created.text()).schedule[0];
    expect(parsed).toMatchObject({ name: 'from-xml', cron: '0 0 6 * * *', timezone: 'America/New_York', overlap: 'buffer-one', catchupWindowSeconds: '60' });
    expect(parsed.nextTimes.time).toHaveLength(5);
    expect(parsed.inputs.input).toEqual([
      { name: 'Text', value: 'x' },
      { name: 'Key', value: 'k' },
    ]);
    const list = xml.parse(await (await t.call('GET', '/schedules', alice, { accept: 'application/xml' })).text());
    expect(list.schedules.schedule.map((schedule: { name: string }) => schedule.name)).toContain('from-xml');
  });

  it('deletes a schedule (204); it is gone, and its run in flight is left alone', async () => {
    const { alice } = t.credentials;
    await t.call('PUT', '/schedules/short-lived', alice, { body: hmacSchedule({ every: '1h' }) });
    const run = await (await t.call('POST', '/schedules/short-lived/trigger', alice)).json();
    expect((await t.call('DELETE', '/schedules/short-lived', alice)).status).toBe(204);
    expect((await t.call('GET', '/schedules/short-lived', alice)).status).toBe(404);
    expect((await t.call('DELETE', '/schedules/short-lived', alice)).status).toBe(404);
    expect((await (await t.call('GET', `/choreo-executions/${run.id}`, alice)).json()).execution.status).toBe('RUNNING');
  });

  it('counts the schedules of every account, active and paused, on /metrics', async () => {
    const { alice, bob } = t.credentials;
    await t.call('PUT', '/schedules/held', bob, { body: hmacSchedule({ every: '1h', paused: true }) });
    const list = (await (await t.call('GET', '/schedules', alice)).json()).schedules as { state: string }[];
    const paused = list.filter((schedule) => schedule.state === 'paused').length + 1;
    const text = await t.metrics.registry.getSingleMetricAsString('ces_schedules');
    expect(text).toContain(`ces_schedules{state="active",service="api"} ${list.length + 1 - paused}`);
    expect(text).toContain(`ces_schedules{state="paused",service="api"} ${paused}`);
  });
});
