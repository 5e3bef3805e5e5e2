import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startInProcessApp, type InProcessApp } from './test-support/in-process-app.ts';

// What a schedule request gets wrong, and how it is told: 400 with every problem at its JSON
// pointer, in JSON and XML; nothing stored.
const xml = new XMLParser({ ignoreDeclaration: true, parseTagValue: false, isArray: (name) => name === 'problem' });
const HMAC = '/Library/Utilities/Hashing/HMAC';

describe('schedules: bad requests', () => {
  let t: InProcessApp;

  beforeAll(async () => {
    t = await startInProcessApp({ redisUrl: inject('redisUrl') });
  });

  afterAll(async () => {
    await t?.close();
  });

  const pointersOf = async (response: Response) => {
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.error.code).toBe('BAD_REQUEST');
    return (body.error.problems as { pointer: string }[]).map((problem) => problem.pointer).sort();
  };

  it('a bad expression, an unknown time zone, a bad policy: every problem at its pointer, nothing stored', async () => {
    const { alice } = t.credentials;
    const put = (document: unknown) => t.call('PUT', '/schedules/bad', alice, { body: JSON.stringify(document) });
    expect(await pointersOf(await put({ choreo: HMAC, cron: '61 * * * *' }))).toEqual(['/cron']);
    expect(await pointersOf(await put({ choreo: HMAC, cron: '0 9 * * *', timezone: 'Mars/Olympus' }))).toEqual(['/timezone']);
    expect(await pointersOf(await put({ choreo: HMAC, every: 'often', overlap: 'queue', catchupWindowSeconds: -1 }))).toEqual([
      '/catchupWindowSeconds',
      '/every',
      '/overlap',
    ]);
    expect(await pointersOf(await put({ choreo: HMAC }))).toEqual(['']);
    expect((await t.call('GET', '/schedules/bad', alice)).status).toBe(404);
  });

  it('a Choreo the credential may not run, or inputs that Choreo refuses', async () => {
    const { alice } = t.credentials;
    const put = (credential: typeof alice, document: unknown) => t.call('PUT', '/schedules/refused', credential, { body: JSON.stringify(document) });
    expect(await pointersOf(await put(alice, { choreo: '/Library/No/Such', every: '1h' }))).toEqual(['/choreo']);
    expect(
      await pointersOf(
        await put(alice, {
          choreo: HMAC,
          every: '1h',
          inputs: [
            { name: 'Text', value: 'x' },
            { name: 'Nope', value: 'y' },
          ],
        }),
      ),
    ).toEqual(['/inputs', '/inputs/1/name']);
    // With a preset, its inputs may fill the required ones: only the names given are checked.
    expect((await put(alice, { choreo: HMAC, every: '1h', preset: 'keys', inputs: [{ name: 'Text', value: 'x' }] })).status).toBe(201);
  });

  it('answers the problems in XML, and reads XML bodies', async () => {
    const { alice } = t.credentials;
    const response = await t.call('PUT', '/schedules/bad-xml', alice, {
      body: `<schedule><choreo>${HMAC}</choreo><every>1h</every><paused>perhaps</paused><catchupWindowSeconds>soon</catchupWindowSeconds></schedule>`,
      headers: { 'content-type': 'application/xml' },
      accept: 'application/xml',
    });
    expect(response.status).toBe(400);
    const error = xml.parse(await response.text()).error;
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.problems.problem.map((problem: { pointer: string }) => problem.pointer).sort()).toEqual(['/catchupWindowSeconds', '/paused']);
    const notXml = await t.call('PUT', '/schedules/bad-xml', alice, { body: '<inputs/>', headers: { 'content-type': 'application/xml' } });
    expect(notXml.status).toBe(400);
  });

  it('refuses a body that is not JSON, none, or an unsupported type, and a name that is not one', async () => {
    const { alice } = t.credentials;
    const body = JSON.stringify({
      choreo: HMAC,
      every: '1h',
      inputs: [
        { name: 'Text', value: 'x' },
        { name: 'Key', value: 'k' },
      ],
    });
    expect((await t.call('PUT', `/schedules/${'n'.repeat(129)}`, alice, { body })).status).toBe(400);
    expect((await t.call('PUT', '/schedules/.hidden', alice, { body })).status).toBe(400);
    expect((await t.call('GET', '/schedules/.hidden', alice)).status).toBe(404);
    expect((await t.call('PUT', '/schedules/x', alice, { body: '{' })).status).toBe(400);
    expect((await t.call('PUT', '/schedules/x', alice, { body: '' })).status).toBe(400);
    expect((await t.call('PUT', '/schedules/x', alice, { body: 'every=1h', headers: { 'content-type': 'text/plain' } })).status).toBe(415);
  });

  it('a backfill of a future, reversed, too wide or malformed range; a note that is not text', async () => {
    const { alice } = t.credentials;
    await t.call('PUT', '/schedules/fill', alice, {
      body: JSON.stringify({
        choreo: HMAC,
        every: '1s',
        inputs: [
          { name: 'Text', value: 'x' },
          { name: 'Key', value: 'k' },
        ],
      }),
    });
    const backfill = (document: unknown) => t.call('POST', '/schedules/fill/backfill', alice, { body: JSON.stringify(document) });
    const now = Date.now();
    expect(await pointersOf(await backfill({ from: now - 1_000, to: now + 60_000 }))).toEqual(['/to']);
    expect(await pointersOf(await backfill({ from: now - 1_000, to: now - 2_000 }))).toEqual(['/from']);
    expect(await pointersOf(await backfill({ from: now - 3_600_000, to: now - 1 }))).toEqual(['/to']);
    expect(await pointersOf(await backfill({ from: 'yesterday', to: now, extra: 1 }))).toEqual(['/extra', '/from']);
    expect(await pointersOf(await t.call('POST', '/schedules/fill/pause', alice, { body: JSON.stringify({ note: 5 }) }))).toEqual(['/note']);
    expect((await t.call('POST', '/schedules/none/backfill', alice, { body: JSON.stringify({ from: now - 1_000, to: now - 1 }) })).status).toBe(404);
    expect((await t.call('POST', '/schedules/none/trigger', alice)).status).toBe(404);
    expect((await t.call('POST', '/schedules/none/pause', alice)).status).toBe(404);
  });

  it('answers 405 with Allow for a method a schedule path does not take', async () => {
    const response = await t.call('POST', '/schedules/fill', t.credentials.alice);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, PUT, DELETE');
  });

  it('refuses a new schedule past the account limit (409), and still replaces one it keeps', async () => {
    const limited = await startInProcessApp({ redisUrl: inject('redisUrl'), maxSchedulesPerAccount: 2 });
    try {
      const { alice } = limited.credentials;
      const body = JSON.stringify({
        choreo: HMAC,
        every: '1h',
        inputs: [
          { name: 'Text', value: 'x' },
          { name: 'Key', value: 'k' },
        ],
      });
      for (const name of ['one', 'two']) expect((await limited.call('PUT', `/schedules/${name}`, alice, { body })).status).toBe(201);
      const refused = await limited.call('PUT', '/schedules/three', alice, { body });
      expect(refused.status).toBe(409);
      expect((await refused.json()).error.message).toContain('2 schedules');
      expect((await limited.call('PUT', '/schedules/two', alice, { body })).status).toBe(200);
      expect((await limited.call('GET', '/schedules/three', alice)).status).toBe(404);
    } finally {
      await limited.close();
    }
  });
});
