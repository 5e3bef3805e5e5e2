import { type StepKind, type StepLibrary, stepLibraryFrom } from '@ces/language';
import { choreoRunStep } from './choreo-run.ts';
import { callbackSteps } from './callback.ts';
import { createCodeStep } from './code.ts';
import { controlSteps } from './control.ts';
import { createConversionSteps } from './conversion.ts';
import { createSendEmailStep, type EmailStepOptions } from './email.ts';
import { encodingSteps } from './encoding.ts';
import { hashingSteps } from './hashing.ts';
import { createHttpRequestStep, createResourceFetcher } from './http-request.ts';
import { createBase64EncodeSourceStep } from './base64-encode-source.ts';
import { createOAuth1Steps } from './oauth1.ts';
import { createOAuth2Steps } from './oauth2.ts';
import type { HttpStepOptions } from './http-request.ts';
import { createSandbox, type Sandbox } from '@ces/sandbox';
import { createJsonFormatStep, createJsonQueryStep, jsonSteps } from './json.ts';
import { dateUtilitySteps } from './date-utilities.ts';
import { createTableConversionSteps } from './table-conversions.ts';
import { createTextSteps } from './text.ts';
import { timeSteps } from './time.ts';
import { tokenStorageSteps } from './token-storage.ts';
import { createXpathStep } from './xml.ts';
import { checksumSteps } from './checksum.ts';
import { createFindingSteps } from './finding.ts';
import { formEncodingSteps } from './form-encoding.ts';
import { createJsonFindPropertyStep } from './json-search.ts';
import { randomSteps } from './random.ts';
import { textEditSteps } from './text-edits.ts';
import { createValidationSteps } from './validation.ts';
import { createXmlUtilitySteps } from './xml-utilities.ts';

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
