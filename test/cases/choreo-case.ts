/**
 * One run of a Choreo under /Library/Utilities/ and how it must end. Each family's cases are one
 * table, `test/cases/<family>.ts` exporting `cases`, run twice: through the engine in the test's
 * own process (test/catalogue/utility-choreos.test.ts) and through the original's Node SDK against
 * a running service (test/e2e/sdk-utilities.test.ts), where the Choreo is a class of the SDK:
 * `require('temboo/Library/Utilities/<family>')[choreo]`.
 */
export interface ChoreoCase {
  /** The family, which is also the SDK's module: `Encoding`, `Authentication/OAuth2`. */
  readonly family: string;
  /** The Choreo in that family, which is also the SDK's class: `Base64Encode`. */
  readonly choreo: string;
  /** What this case shows, when a Choreo has several cases. */
  readonly name?: string;
  /** Through the SDK, set one by one with `inputSet.set_<Name>(value)`. */
  readonly inputs: Readonly<Record<string, string>>;
  /** Inputs that need the local server of `test/support/echo-server.ts`, set after `inputs`. */
  readonly contextInputs?: (context: ChoreoCaseContext) => Readonly<Record<string, string>>;
  /**
   * The outputs, each equal to its text or matching its pattern. The engine holds a run to this
   * whole set; the SDK reads only the outputs its result set has a `get_<Name>` getter for.
   */
  readonly outputs?: Readonly<Record<string, string | RegExp>>;
  /** For outputs no pattern can judge (randomness, a workbook's cells): throws when wrong. */
  readonly check?: (outputs: Readonly<Record<string, string>>) => void;
  /** The run must fail with a `lasterror` matching this (through the SDK: or be refused with it). */
  readonly error?: RegExp;
  /**
   * Where the case runs, when not in both places: `engine` for a Choreo or an input the SDK has
   * no class or setter for, or an input larger than the API takes; `sdk` for a case that needs a
   * running service (an account's state, the API's refusals).
   */
  readonly only?: 'engine' | 'sdk';
  /** A preset named with the input set's `setCredential`, which the SDK sends as `preset`. */
  readonly preset?: string;
  /** Runs with a wrong application key, as a program with a mistyped key would. */
  readonly wrongKey?: boolean;
}

/** What a runner provides to `contextInputs`. */
export interface ChoreoCaseContext {
  /** `http://127.0.0.1:<port>` of a server started with `startEchoServer()` (test/support/echo-server.ts). */
  readonly echoServerUrl: string;
}

/** An output that may hold any text, the empty text too. */
export const ANY_TEXT = /^[\s\S]*$/;

/** The case's title in a test list: `Family/Choreo (name)`. */
export function caseTitle(testCase: ChoreoCase): string {
  return `${testCase.family}/${testCase.choreo}${testCase.name === undefined ? '' : ` (${testCase.name})`}`;
}
