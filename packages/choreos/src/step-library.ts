import { stepLibraryFrom } from './step-kind.ts';
import type { StepKind, StepLibrary } from './step-kind.ts';
import { choreoRunStep } from './steps/choreo-run.ts';
import { callbackSteps } from './steps/callback.ts';
import { createCodeStep } from './steps/code.ts';
import { controlSteps } from './steps/control.ts';
import { createConversionSteps } from './steps/conversion.ts';
import { createSendEmailStep, type EmailStepOptions } from './steps/email.ts';
import { encodingSteps } from './steps/encoding.ts';
import { hashingSteps } from './steps/hashing.ts';
import { createHttpRequestStep, createResourceFetcher } from './steps/http-request.ts';
import { createBase64EncodeSourceStep } from './steps/base64-encode-source.ts';
import { createOAuth1Steps } from './steps/oauth1.ts';
import { createOAuth2Steps } from './steps/oauth2.ts';
import type { HttpStepOptions } from './steps/http-request.ts';
import { createSandbox, type Sandbox } from './sandbox.ts';
import { createJsonFormatStep, createJsonQueryStep, jsonSteps } from './steps/json.ts';
import { dateUtilitySteps } from './steps/date-utilities.ts';
import { createTableConversionSteps } from './steps/table-conversions.ts';
import { createTextSteps } from './steps/text.ts';
import { timeSteps } from './steps/time.ts';
import { tokenStorageSteps } from './steps/token-storage.ts';
import { createXpathStep } from './steps/xml.ts';
import { checksumSteps } from './steps/checksum.ts';
import { createFindingSteps } from './steps/finding.ts';
import { formEncodingSteps } from './steps/form-encoding.ts';
import { createJsonFindPropertyStep } from './steps/json-search.ts';
import { randomSteps } from './steps/random.ts';
import { textEditSteps } from './steps/text-edits.ts';
import { createValidationSteps } from './steps/validation.ts';
import { createXmlUtilitySteps } from './steps/xml-utilities.ts';

export interface StepLibraryOptions {
  readonly http: HttpStepOptions;
  /**
   * SMTP (`email.send`): the HTTP step's egress policy and timeout, and its response limit for
   * attachments, unless given here.
   */
  readonly email?: Partial<EmailStepOptions>;
  /**
   * Where regular expressions, JSONPath, XPath and JavaScript run; one with the default limits when absent. A
   * worker shares its own with the output filters.
   */
  readonly sandbox?: Sandbox;
  /** More kinds (tests, extensions); a kind name may not repeat a built-in one. */
  readonly extraKinds?: readonly StepKind[];
}

/** Defaults for tools that only inspect definitions (docs, validation) and never send requests. */
export const DEFAULT_STEP_LIBRARY_OPTIONS: StepLibraryOptions = {
  http: { allowPrivateNetworks: false, timeoutMs: 30_000, maxResponseBytes: 10 * 1024 * 1024 },
};

export function createStepLibrary(options: StepLibraryOptions = DEFAULT_STEP_LIBRARY_OPTIONS): StepLibrary {
  const sandbox = options.sandbox ?? createSandbox();
  const httpStep = createHttpRequestStep(options.http);
  return stepLibraryFrom([
    httpStep,
    ...createOAuth1Steps(httpStep),
    ...createOAuth2Steps(httpStep),
    createSendEmailStep({
      allowPrivateNetworks: options.http.allowPrivateNetworks,
      ...(options.http.allowedHosts ? { allowedHosts: options.http.allowedHosts } : {}),
      timeoutMs: options.http.timeoutMs,
      maxAttachmentBytes: options.http.maxResponseBytes,
      ...options.email,
    }),
    ...encodingSteps,
    createBase64EncodeSourceStep(createResourceFetcher(options.http)),
    ...hashingSteps,
    ...jsonSteps,
    createJsonQueryStep(sandbox),
    createJsonFormatStep(sandbox),
    createXpathStep(sandbox),
    ...createXmlUtilitySteps(sandbox),
    ...createConversionSteps(sandbox),
    ...createTableConversionSteps(sandbox),
    ...createTextSteps(sandbox),
    ...timeSteps,
    ...dateUtilitySteps,
    ...controlSteps,
    ...checksumSteps,
    ...createFindingSteps(sandbox),
    ...formEncodingSteps,
    createJsonFindPropertyStep(sandbox),
    ...randomSteps,
    ...textEditSteps,
    ...createValidationSteps(sandbox),
    createCodeStep(sandbox),
    choreoRunStep,
    ...tokenStorageSteps,
    ...callbackSteps,
    ...(options.extraKinds ?? []),
  ]);
}
