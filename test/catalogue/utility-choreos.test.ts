import { type Catalogue, loadCatalogue } from '@ces/catalogue';
import { createStepLibrary } from '@ces/steps';
import type { RunOutcome } from '@ces/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChoreoCase, caseTitle } from '../cases/choreo-case.ts';
import { loadChoreoCases } from '../support/choreo-cases.ts';
import { type EchoServer, startEchoServer } from '../support/echo-server.ts';
import { type EngineHooks, runCatalogueChoreo } from '../support/run-catalogue-choreo.ts';
import { CATALOGUE_DIR } from '../support/stack.ts';

// Every Utilities Choreo of the checked-in catalogue, run through the engine in this process with
// the real step library: each case of test/cases/ that can run without a service, then the few
// runs no table holds.

const tables = await loadChoreoCases('engine');
let echoServer: EchoServer;
let catalogue: Catalogue;
const steps = createStepLibrary({ http: { allowPrivateNetworks: true, timeoutMs: 5000, maxResponseBytes: 1024 * 1024 } });

function run(id: string, provided: Readonly<Record<string, string>>, hooks?: EngineHooks): Promise<RunOutcome> {
  return runCatalogueChoreo(catalogue, steps, `/Library/Utilities/${id}`, provided, hooks);
}

/** The outputs a case names, its patterns as matchers. */
function expectedOutputs(outputs: Readonly<Record<string, string | RegExp>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(outputs).map(([name, value]) => [name, typeof value === 'string' ? value : expect.stringMatching(value)]));
}

async function expectCase(testCase: ChoreoCase): Promise<void> {
  const inputs = { ...testCase.inputs, ...testCase.contextInputs?.({ echoServerUrl: echoServer.url }) };
  const outcome = await run(`${testCase.family}/${testCase.choreo}`, inputs).catch((error: unknown) => error as Error);
  if (testCase.error !== undefined) {
    // Refused before it ran (a required input missing), or run and failed with its lasterror.
    const failure = outcome instanceof Error ? outcome.message : outcome.kind === 'failed' ? outcome.error : undefined;
    expect(failure, 'the run neither was refused nor failed').toBeDefined();
    expect(failure).toMatch(testCase.error);
    return;
  }
  if (outcome instanceof Error) throw outcome;
  expect(outcome.kind === 'failed' ? outcome.error : outcome.kind).toBe('completed');
  if (testCase.outputs !== undefined) expect(outcome.checkpoint.outputs).toEqual(expectedOutputs(testCase.outputs));
  testCase.check?.(outcome.checkpoint.outputs);
}

beforeAll(async () => {
  catalogue = await loadCatalogue(CATALOGUE_DIR, steps);
  echoServer = await startEchoServer();
});

afterAll(async () => {
  await echoServer?.close();
});

describe('Utilities Choreos through the engine', () => {
  it('all have a case', () => {
    // TokenStorage and Callback work on an account's state, Email needs an SMTP server: run with
    // real ones in test/integration/token-storage-choreos.test.ts, test/e2e/account-state.test.ts,
    // test/e2e/sdk-utilities.test.ts and test/integration/send-email.test.ts; OAuth needs both,
    // in test/e2e/account-state.test.ts.
    const utilities = catalogue
      .list()
      .filter((entry) => entry.id.startsWith('/Library/Utilities/'))
      .filter((entry) => !['TokenStorage/', 'Callback/', 'Email/', 'Authentication/'].some((family) => entry.id.startsWith(`/Library/Utilities/${family}`)));
    const ids = utilities.map((entry) => entry.id.replace('/Library/Utilities/', ''));
    const covered = new Set(tables.flatMap(({ cases }) => cases.map((testCase) => `${testCase.family}/${testCase.choreo}`)));
    expect(ids.sort()).toEqual([...covered].sort());
  });

  for (const { file, cases } of tables) {
    describe(file, () => {
      it.each(cases.map((testCase) => [caseTitle(testCase), testCase] as const))('%s', async (_title, testCase) => {
        await expectCase(testCase);
      });
    });
  }

  it('XLSToCSV and XLSToXML read what CSVToXLS and XMLToXLS write', async () => {
    const written = await run('DataConversions/CSVToXLS', { CSV: 'name,qty\nZoë,3\n' });
    const xls = written.kind === 'completed' ? String(written.checkpoint.outputs.XLS) : '';
    expect(await run('DataConversions/XLSToCSV', { XLS: xls })).toMatchObject({
      kind: 'completed',
      checkpoint: { outputs: { CSV: 'name,qty\nZoë,3' } },
    });
    const fromXml = await run('DataConversions/XMLToXLS', { XML: '<rowset><row><a>1</a><b>x</b></row></rowset>' });
    const xlsFromXml = fromXml.kind === 'completed' ? String(fromXml.checkpoint.outputs.XLS) : '';
    expect(await run('DataConversions/XLSToXML', { XLS: xlsFromXml })).toMatchObject({
      kind: 'completed',
      checkpoint: { outputs: { XML: '<rowset><row><a>1</a><b>x</b></row></rowset>' } },
    });
  });

  it('Countdown reports the steps completed when stopped early', async () => {
    const outcome = await run(
      'Development/Countdown',
      { StepMilliseconds: '1' },
      { beforeStep: (index) => (index === 3 ? 'termination-requested' : undefined), afterStep: async () => undefined, afterProgress: async () => undefined },
    );
    expect(outcome).toMatchObject({ kind: 'stopped', reason: 'termination-requested', checkpoint: { nextStep: 3, outputs: { CompletedSteps: '3' } } });
  });

  it('TokenStorage fails clearly in a run given no account state', async () => {
    const outcome = await run('TokenStorage/IsValid', { Name: 'any' });
    expect(outcome).toMatchObject({ kind: 'failed', error: 'check: token storage is not available to this run: the worker has no SECRETS_KEY' });
  });

  it('HTTP/Get refuses bad RequestHeaders', async () => {
    const outcome = await run('HTTP/Get', { URL: `${echoServer.url}/echo`, RequestHeaders: 'not json' });
    expect(outcome).toMatchObject({ kind: 'failed', error: expect.stringContaining('expected a JSON object') });
  });
});
