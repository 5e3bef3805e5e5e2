/** A run of a catalogue Choreo through the engine, for catalogue-choreos.test.ts. */
export interface CatalogueCase {
  /** The Choreo, under /Library/Utilities/ (e.g. `XML/RunXPathQuery`). */
  readonly choreo: string;
  /** What the case shows, when a Choreo has more than one. */
  readonly name?: string;
  readonly inputs: Record<string, string>;
  /** The outputs, exactly (asymmetric matchers allowed). */
  readonly outputs?: Record<string, unknown>;
  /** The run must fail with a `lasterror` matching this. */
  readonly error?: RegExp;
}

export interface CatalogueCaseContext {
  /** Base URL of the test's local HTTP server on 127.0.0.1. */
  readonly base: string;
}
