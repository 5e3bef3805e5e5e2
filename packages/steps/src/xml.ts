import { z } from 'zod';
import type { Sandbox } from '@ces/sandbox';
import { defineStepKind, type StepKind } from '@ces/language';
import { text } from './arg-types.ts';

/** `xml.xpath`: the query runs in `sandbox`, where it can be stopped. */
export function createXpathStep(sandbox: Sandbox): StepKind {
  return defineStepKind({
    kind: 'xml.xpath',
    pure: true,
    description:
      'Evaluates the XPath 1.0 expression `xpath` on the XML text `xml` (DOCTYPE refused). Selected attributes and text nodes give their value, elements holding only text their text, other elements their XML. Result: `{ result, count }`: a single value is its text, several are a JSON array.',
    argsSchema: z.strictObject({ xml: text, xpath: z.string().max(10_000) }),
    example: { xml: '{{inputs.XML}}', xpath: '/catalog/book[1]/title' },
    run: async (args, context) => sandbox.queryXml({ xml: args.xml, expression: args.xpath }, context.signal),
  });
}
