import { z } from 'zod';
import { defineStepKind, type StepKind } from '@ces/language';
import { text } from './arg-types.ts';

/** GETs a URL under the egress policy and gives back its body's bytes in Base64 (http-request.ts). */
export type FetchResource = (url: string, signal: AbortSignal) => Promise<string>;

/**
 * The original's Base64Encode: the UTF-8 bytes of `text`, or the bytes of the file at `url`. With
 * a text alone it is as pure as any encoding; a URL makes it an HTTP request.
 */
export function createBase64EncodeSourceStep(fetchResource: FetchResource): StepKind {
  return defineStepKind({
    kind: 'encoding.base64-encode-source',
    pureUnless: ['url'],
    description:
      'Base64-encodes the UTF-8 bytes of `text`, or, when `url` is not empty, the bytes of the file it names (fetched with GET under the same egress policy, timeout and size limit as `http.request`; an answer other than 2xx fails the step); an empty text, without a URL, encodes to an empty text. Result: `{ text }`.',
    argsSchema: z.strictObject({ text: text.default(''), url: z.string().max(8192).default('') }),
    example: { text: '{{inputs.Text}}', url: '{{inputs.URL}}' },
    run: async (args, context) => {
      if (args.url !== '') return { text: await fetchResource(args.url, context.signal) };
      return { text: Buffer.from(args.text, 'utf8').toString('base64') };
    },
  });
}
