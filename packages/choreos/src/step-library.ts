import { stepLibraryFrom } from './step-kind.ts';
import type { StepKind, StepLibrary } from './step-kind.ts';
import { controlSteps } from './steps/control.ts';
import { conversionSteps } from './steps/conversion.ts';
import { encodingSteps } from './steps/encoding.ts';
import { hashingSteps } from './steps/hashing.ts';
import { createHttpRequestStep } from './steps/http-request.ts';
import type { HttpStepOptions } from './steps/http-request.ts';
import { jsonSteps } from './steps/json.ts';
import type { RegexRunnerOptions } from './steps/regex-runner.ts';
import { createRegexReplaceStep, DEFAULT_REGEX_OPTIONS, textSteps } from './steps/text.ts';
import { timeSteps } from './steps/time.ts';
import { xmlSteps } from './steps/xml.ts';

export interface StepLibraryOptions {
  readonly http: HttpStepOptions;
  /** Limits of `text.regex-replace`; DEFAULT_REGEX_OPTIONS when absent. */
  readonly regex?: RegexRunnerOptions;
  /** More kinds (tests, extensions); a kind name may not repeat a built-in one. */
  readonly extraKinds?: readonly StepKind[];
}

/** Defaults for tools that only inspect definitions (docs, validation) and never send requests. */
export const DEFAULT_STEP_LIBRARY_OPTIONS: StepLibraryOptions = {
  http: { allowPrivateNetworks: false, timeoutMs: 30_000, maxResponseBytes: 10 * 1024 * 1024 },
};

export function createStepLibrary(options: StepLibraryOptions = DEFAULT_STEP_LIBRARY_OPTIONS): StepLibrary {
  return stepLibraryFrom([
    createHttpRequestStep(options.http),
    ...encodingSteps,
    ...hashingSteps,
    ...jsonSteps,
    ...xmlSteps,
    ...conversionSteps,
    ...textSteps,
    createRegexReplaceStep(options.regex ?? DEFAULT_REGEX_OPTIONS),
    ...timeSteps,
    ...controlSteps,
    ...(options.extraKinds ?? []),
  ]);
}
