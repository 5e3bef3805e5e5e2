import { expect } from 'vitest';

/** A run of a catalogue Choreo with the outputs it must end with, or the error it must fail with. */
export interface CatalogueCase {
  inputs: Record<string, string>;
  outputs?: Record<string, unknown>;
  error?: RegExp;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * The original service's stateless Utilities (Test, Text, Encoding, Hashing, Numbers, Formatting,
 * Finding, JSON, Validation) with the inputs and outputs its SDK names, keyed by id under
 * /Library/Utilities/.
 */
export function statelessUtilityCases(): Record<string, CatalogueCase> {
  return {
    'Test/HelloWorld': { inputs: {}, outputs: { Result: 'Hello, world!' } },
  };
}

/** Further runs of the same Choreos: each input's edge, Unicode, malformed data. */
export function statelessUtilityEdgeCases(): Record<string, CatalogueCase & { id: string }> {
  return {
    'HelloWorld greets the value': { id: 'Test/HelloWorld', inputs: { Value: 'Zoë 😀' }, outputs: { Result: 'Hello, Zoë 😀!' } },
  };
}

export { UUID };
