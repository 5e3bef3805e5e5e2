import { z } from 'zod';
import {
  type AccountCallbacks,
  type CallbackRequest,
  defineStepKind,
  InvalidStepInputError,
  type StepContext,
  StepFailedError,
  type StepKind,
} from '@ces/language';

const CALLBACK_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const callbackId = z.string().regex(CALLBACK_ID, 'a callback id is 1 to 128 letters, digits and . _ -, starting with a letter or digit');
const optionalText = z.string().max(1000).default('');

function callbacksOf(context: StepContext): AccountCallbacks {
  const callbacks = context.account?.callbacks;
  if (!callbacks) throw new StepFailedError('callbacks are not available to this run: the worker has no SECRETS_KEY', { retryable: false });
  return callbacks;
}

/** FilterName and FilterValue go together: both given, or neither. */
function filterOf(name: string, value: string): { name: string; value: string } | undefined {
  if (name === '' && value === '') return undefined;
  if (name === '' || value === '') throw new InvalidStepInputError('FilterName and FilterValue go together: give both, or neither');
  return { name, value };
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function requestsXml(requests: readonly CallbackRequest[]): string {
  const pairs = (tag: string, entries: Record<string, string>) =>
    Object.entries(entries)
      .map(([name, value]) => `<${tag} name="${escapeXml(name)}">${escapeXml(value)}</${tag}>`)
      .join('');
  const items = requests.map(
    (request) =>
      `<request><method>${escapeXml(request.method)}</method><receivedAt>${escapeXml(request.receivedAt)}</receivedAt>` +
      `<query>${pairs('parameter', request.query)}</query><headers>${pairs('header', request.headers)}</headers>` +
      `<body>${escapeXml(request.body)}</body></request>`,
  );
  return `<requests>${items.join('')}</requests>`;
}

export const callbackSteps: readonly StepKind[] = [
  defineStepKind({
    kind: 'callback.register',
    description:
      "Registers a callback URL of the run's account: served by this service over HTTPS, public, unguessable, expiring after ten minutes; it records the requests it receives and redirects to `forwardingUrl` when given. `id` names it (random when empty; the same id gives the same URL); with `filterName` and `filterValue`, only requests with that query parameter are recorded. Result: `{ id, url }`.",
    argsSchema: z.strictObject({
      id: z.union([z.literal(''), callbackId]).default(''),
      forwardingUrl: z
        .string()
        .max(2000)
        .refine((url) => url === '' || (URL.canParse(url) && /^https?:$/.test(new URL(url).protocol)), 'ForwardingURL must be an http:// or https:// URL')
        .default(''),
      filterName: optionalText,
      filterValue: optionalText,
    }),
    example: { id: '{{inputs.CustomCallbackD}}', forwardingUrl: '{{inputs.ForwardingURL}}' },
    run: async (args, context) => {
      const filter = filterOf(args.filterName, args.filterValue);
      return callbacksOf(context).register({
        ...(args.id !== '' ? { id: args.id } : {}),
        ...(args.forwardingUrl !== '' ? { forwardingUrl: args.forwardingUrl } : {}),
        ...(filter ? { filter } : {}),
      });
    },
  }),
  defineStepKind({
    kind: 'callback.read',
    description:
      "The requests a callback of the run's account received, oldest first, each `{method, query, headers, body, receivedAt}`; with `filterName` and `filterValue`, those whose query has that parameter and value. `format` json (the default: a JSON array) or xml (`<requests><request>…`). Result: `{ data, count }`.",
    argsSchema: z.strictObject({ id: callbackId, filterName: optionalText, filterValue: optionalText, format: z.enum(['json', 'xml']).default('json') }),
    example: { id: '{{inputs.CallbackID}}', format: '{{inputs.ResponseFormat}}' },
    run: async (args, context) => {
      const filter = filterOf(args.filterName, args.filterValue);
      const received = await callbacksOf(context).requests(args.id);
      const requests = filter ? received.filter((request) => request.query[filter.name] === filter.value) : received;
      return { data: args.format === 'xml' ? requestsXml(requests) : JSON.stringify(requests), count: requests.length };
    },
  }),
];
