import { z } from 'zod';
import type { Sandbox } from '@ces/sandbox';
import { defineStepKind, type StepKind } from '@ces/language';
import { text } from './arg-types.ts';
import { choiceArg } from './lenient-args.ts';

const responseFormat = choiceArg(['json', 'csv'], 'json');

/** The original Utilities' XML queries; they run in `sandbox`, where they can be stopped. */
export function createXmlUtilitySteps(sandbox: Sandbox): StepKind[] {
  return [
    defineStepKind({
      kind: 'xml.get-values',
      pure: true,
      description:
        'Every value of the elements named `node`, or of the attributes named after "@" in `node`, in the XML text `xml`, in document order (an element holding more than text gives its XML). `format` is json (default: a JSON array of strings) or csv (one line). Result: `{ result }`.',
      argsSchema: z.strictObject({ xml: text, node: z.string().max(1000), format: responseFormat }),
      example: { xml: '{{inputs.XML}}', node: '@id', format: 'json' },
      run: async (args, context) => ({ result: await sandbox.runData('xml-get-values', args, context.signal) }),
    }),
    defineStepKind({
      kind: 'xml.xpath-query',
      pure: true,
      description:
        'Runs the XPath 1.0 expression `xpath` on `xml`. `mode` select (default) keeps the first match, recursive every match. Attributes, text nodes and elements holding only text give their text; other elements an object (json) or a row of their attributes and child elements under a header line (csv). `format` json (default): select gives the value itself (an object as JSON), recursive a JSON array; csv: one value or row per line. Result: `{ result, count }`.',
      argsSchema: z.strictObject({
        xml: text,
        xpath: z.string().max(10_000),
        mode: choiceArg(['select', 'recursive'], 'select'),
        format: responseFormat,
      }),
      example: { xml: '{{inputs.XML}}', xpath: '/catalog/book/title', mode: 'recursive', format: 'json' },
      run: async (args, context) => sandbox.runData('xml-run-xpath', args, context.signal),
    }),
  ];
}
