/**
 * One run of an original Utilities Choreo through the original Node SDK's own generated class:
 * `require('temboo/Library/Utilities/<family>')[choreo]`, inputs set with the input set's
 * `set_<Name>` methods, outputs read with the result set's `get_<Name>` getters.
 *
 * Each family's cases live in `test/e2e/sdk-cases/<family>.ts` as `export const cases: SdkCase[]`.
 */
export interface SdkCase {
  /** The module under `temboo/Library/Utilities/`, e.g. `Encoding` or `Authentication/OAuth2`. */
  readonly family: string;
  /** The class exported by that module, e.g. `Base64Encode`. */
  readonly choreo: string;
  /** What this case shows, when a Choreo has several cases. */
  readonly name?: string;
  /** Set one by one with `inputSet.set_<Name>(value)`. */
  readonly inputs: Readonly<Record<string, string>>;
  /**
   * Inputs that need the run's context (the local server's URL), set after `inputs`. A runner
   * that runs such cases starts the server of `echo-server.ts` and lets the service reach it.
   */
  readonly contextInputs?: (context: SdkCaseContext) => Readonly<Record<string, string>>;
  /** Outputs read with `results.get_<Name>()` and compared exactly. */
  readonly expect?: Readonly<Record<string, string>>;
  /** For outputs that cannot be compared exactly (random, current time): throws when wrong. */
  readonly check?: (outputs: Readonly<Record<string, string>>) => void;
  /** The run is expected to reach the SDK's error callback, with a message matching this. */
  readonly error?: RegExp;
  /** A preset named with the input set's `setCredential`, which the SDK sends as `preset`. */
  readonly preset?: string;
  /** Runs with a wrong application key, as a program with a mistyped key would. */
  readonly wrongKey?: boolean;
}

/** What a runner provides to `contextInputs`. */
export interface SdkCaseContext {
  /** `http://127.0.0.1:<port>` of a server started with `startEchoServer()` (echo-server.ts). */
  readonly echoServerUrl: string;
}
