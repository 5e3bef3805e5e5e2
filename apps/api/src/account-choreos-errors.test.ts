import { DEFAULT_CHOREO_DOCUMENT_LIMITS } from '@ces/catalogue';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { greeterDocument } from './test-support/choreo-documents.ts';
import { startInProcessApp, type InProcessApp } from './test-support/in-process-app.ts';

// Writes of an account's own Choreos that are refused: each with a clear answer, nothing stored.
describe("an account's own Choreos refused", () => {
  let t: InProcessApp;
  let bounded: InProcessApp;

  beforeAll(async () => {
    t = await startInProcessApp({ redisUrl: inject('redisUrl') });
    bounded = await startInProcessApp({ redisUrl: inject('redisUrl'), accountChoreoLimits: { maxCount: 2, maxBytes: 2000 } });
  });

  afterAll(async () => {
    await t?.close();
    await bounded?.close();
  });

  const put = (id: string, body: string, headers: Record<string, string> = {}, app = t) =>
    app.call('PUT', `/choreos${id}`, app.credentials.alice, { body, headers });
  const absent = async (id: string, app = t) => expect((await app.call('GET', `/choreos${id}`, app.credentials.alice)).status).toBe(404);

  it('takes JSON only: 415 for XML, text or no Content-Type', async () => {
    const document = JSON.stringify(greeterDocument('Hello'));
    for (const type of ['application/xml', 'text/plain', '']) {
      const res = await put('/Mine/Typed', document, { 'content-type': type });
      expect(res.status, type).toBe(415);
      expect((await res.json()).error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
    await absent('/Mine/Typed');
    expect((await put('/Mine/Typed', document, { 'content-type': 'application/json; charset=utf-8' })).status).toBe(201);
  });

  it('answers 400 with every problem at its JSON pointer, and stores nothing', async () => {
    const valid = greeterDocument('Hello');
    const cases: [string, unknown, { pointer: string; message: unknown }[]][] = [
      ['not JSON', '{"description": ', [{ pointer: '', message: expect.stringContaining('not valid JSON') }]],
      ['an empty description', { ...valid, description: '' }, [{ pointer: '/description', message: 'a description is required' }]],
      ['an unknown property', { ...valid, colour: 'blue' }, [{ pointer: '', message: expect.stringContaining('colour') }]],
      ['no steps', { ...valid, steps: [] }, [{ pointer: '/steps', message: 'a Choreo needs at least one step' }]],
      [
        'an unknown step kind',
        { ...valid, steps: [{ id: 'say', kind: 'teleport', args: {} }] },
        [{ pointer: '/steps/0', message: 'unknown step kind "teleport"' }],
      ],
      [
        'no description and an unknown step kind, both at once',
        { ...valid, description: undefined, steps: [{ id: 'say', kind: 'teleport', args: {} }] },
        [
          { pointer: '/description', message: expect.any(String) },
          { pointer: '/steps/0', message: 'unknown step kind "teleport"' },
        ],
      ],
      [
        'a reference to an undeclared input',
        { ...valid, steps: [{ id: 'say', kind: 'noop', args: { text: '{{inputs.Nobody}}' } }] },
        [{ pointer: '/steps/0/args/text', message: '{{inputs.Nobody}} refers to an input that is not declared' }],
      ],
      [
        'arguments of the wrong type',
        { ...valid, steps: [{ id: 'say', kind: 'control.wait', args: { milliseconds: 'soon' } }] },
        [{ pointer: '/steps/0/args/milliseconds', message: expect.any(String) }],
      ],
      [
        'a duplicate step id',
        { ...valid, steps: [valid.steps[0], valid.steps[0]] },
        [{ pointer: '/steps/1', message: 'step id "say" is already used by steps[0]' }],
      ],
      [
        'code that does not compile',
        { ...valid, steps: [{ id: 'say', kind: 'code.javascript', args: { code: 'return (' } }] },
        [{ pointer: '/steps/0/args/code', message: expect.stringContaining('does not compile') }],
      ],
      [
        'an expression that does not parse',
        { ...valid, outputs: { Greeting: { description: 'x', value: '{% $string( %}' } } },
        [{ pointer: '/outputs/Greeting/value', message: expect.any(String) }],
      ],
      [
        'too many steps',
        { ...valid, steps: Array.from({ length: DEFAULT_CHOREO_DOCUMENT_LIMITS.maxSteps + 1 }, (_, i) => ({ id: `s${i}`, kind: 'noop' })) },
        [{ pointer: '/steps', message: expect.stringContaining(`more than ${DEFAULT_CHOREO_DOCUMENT_LIMITS.maxSteps}`) }],
      ],
      [
        'too deep a document',
        { ...valid, steps: [{ id: 'say', kind: 'noop', args: { deep: JSON.parse(`${'['.repeat(40)}${']'.repeat(40)}`) } }] },
        [{ pointer: expect.stringMatching(/^\/steps\/0\/args\/deep(\/0)+$/), message: expect.stringContaining('levels') }],
      ],
    ];
    for (const [what, document, problems] of cases) {
      const res = await put('/Mine/Invalid', typeof document === 'string' ? document : JSON.stringify(document));
      expect(res.status, what).toBe(400);
      const { error } = await res.json();
      expect(error.code, what).toBe('BAD_REQUEST');
      expect(error.problems, what).toEqual(problems);
    }
    await absent('/Mine/Invalid');
  });

  it('lists the problems in XML when XML is asked for', async () => {
    const res = await t.call('PUT', '/choreos/Mine/InvalidXml', t.credentials.alice, {
      body: JSON.stringify({ ...greeterDocument('Hi'), description: '' }),
      accept: 'application/xml',
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('<problem><pointer>/description</pointer><message>a description is required</message></problem>');
  });

  it('keeps the current version when a replacement is refused', async () => {
    expect((await put('/Mine/Kept', JSON.stringify(greeterDocument('Hello')))).status).toBe(201);
    expect((await put('/Mine/Kept', JSON.stringify({ ...greeterDocument('Bye'), steps: [] }))).status).toBe(400);
    const details = await (await t.call('GET', '/choreos/Mine/Kept', t.credentials.alice)).json();
    expect(details).toMatchObject({ version: '1' });
  });

  it('refuses a document past its size with 413', async () => {
    const huge = JSON.stringify(greeterDocument('Hello', { description: 'x'.repeat(DEFAULT_CHOREO_DOCUMENT_LIMITS.maxBytes) }));
    const res = await put('/Mine/Huge', huge);
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBe('PAYLOAD_TOO_LARGE');
    await absent('/Mine/Huge');
  });

  it('refuses ids that break the catalogue rules for segments', async () => {
    const document = JSON.stringify(greeterDocument('Hello'));
    for (const id of ['/Mine/.hidden', '/Mine/-dash', '/Mine/a%20b', '/Mine//Doc']) {
      expect((await put(id, document)).status, id).toBe(400);
    }
  });

  it("bounds each account's Choreos: 429 past their number, 413 past their bytes", async () => {
    const small = JSON.stringify(greeterDocument('Hi'));
    expect((await put('/One', small, {}, bounded)).status).toBe(201);
    expect((await put('/Two', small, {}, bounded)).status).toBe(201);
    const third = await put('/Three', small, {}, bounded);
    expect(third.status).toBe(429);
    expect((await third.json()).error.message).toContain('2 Choreos');
    await absent('/Three', bounded);
    // Replacing one is no new Choreo: within the bytes, it is taken.
    expect((await put('/Two', JSON.stringify(greeterDocument('Hello there')), {}, bounded)).status).toBe(200);
    const larger = await put('/Two', JSON.stringify(greeterDocument('Hello', { description: 'y'.repeat(1500) })), {}, bounded);
    expect(larger.status).toBe(413);
    expect((await (await bounded.call('GET', '/choreos/Two', bounded.credentials.alice)).json()).version).toBe('2');
    const refusals = await bounded.metrics.registry.getSingleMetricAsString('ces_requests_refused_total');
    expect(refusals).toMatch(/ces_requests_refused_total\{[^}]*limit="account-choreos"[^}]*\} 2\b/);
    // Another account has bounds of its own.
    expect((await bounded.call('PUT', '/choreos/Three', bounded.credentials.bob, { body: small })).status).toBe(201);
  });

  it('answers 405 with the methods of a Choreo for others', async () => {
    const res = await t.call('PATCH', '/choreos/Mine/Kept', t.credentials.alice, { body: '{}' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, POST, PUT, DELETE');
  });
});
