import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { REALM } from '../middleware/authenticate.ts';
import { deleteChoreoOperation } from '../routes/delete-choreo.ts';
import { deletePresetOperation } from '../routes/delete-preset.ts';
import { getChoreoOperation } from '../routes/get-choreo.ts';
import { getExecutionOperation } from '../routes/get-execution.ts';
import { getPresetOperation } from '../routes/get-preset.ts';
import { healthOperations } from '../routes/health.ts';
import { listChoreosOperation } from '../routes/list-choreos.ts';
import { listExecutionsOperation } from '../routes/list-executions.ts';
import { listPresetsOperation } from '../routes/list-presets.ts';
import { putChoreoOperation } from '../routes/put-choreo.ts';
import { putPresetOperation } from '../routes/put-preset.ts';
import { redriveExecutionOperation } from '../routes/redrive-execution.ts';
import { runChoreoOperation } from '../routes/run-choreo.ts';
import { terminateExecutionOperation } from '../routes/terminate-execution.ts';
import { runEventsOperation } from '../routes/run-events.ts';
import { deleteWebhookOperation } from '../routes/delete-webhook.ts';
import { getWebhookOperation } from '../routes/get-webhook.ts';
import { listWebhookDeliveriesOperation } from '../routes/list-webhook-deliveries.ts';
import { listWebhooksOperation } from '../routes/list-webhooks.ts';
import { putWebhookOperation } from '../routes/put-webhook.ts';
import { redeliverWebhookOperation } from '../routes/redeliver-webhook.ts';
import { rotateWebhookSecretOperation } from '../routes/rotate-webhook-secret.ts';
import { callbackOperations } from './callback-operations.ts';
import { scheduleOperations } from './schedule-operations.ts';
import type { Operation } from './operation.ts';
import { interfaceDocumentOperations } from './interface-document-operations.ts';

/** Every operation the service answers on, outside `/ops` and `/metrics` (operators' own). */
export const OPERATIONS: readonly Operation[] = [
  listChoreosOperation,
  getChoreoOperation,
  runChoreoOperation,
  putChoreoOperation,
  deleteChoreoOperation,
  listExecutionsOperation,
  getExecutionOperation,
  terminateExecutionOperation,
  runEventsOperation,
  redriveExecutionOperation,
  listPresetsOperation,
  getPresetOperation,
  putPresetOperation,
  deletePresetOperation,
  listWebhooksOperation,
  getWebhookOperation,
  putWebhookOperation,
  deleteWebhookOperation,
  rotateWebhookSecretOperation,
  listWebhookDeliveriesOperation,
  redeliverWebhookOperation,
  ...scheduleOperations,
  ...callbackOperations,
  ...healthOperations,
  ...interfaceDocumentOperations,
];

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

/** The OpenAPI 3.1 document of the interface, generated from the schemas the routes validate with. */
export function createOpenApiDocument(): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'basicAuth', {
    type: 'http',
    scheme: 'basic',
    description: `A user (name and password) or an application (name and key) of the account; realm "${REALM}".`,
  });
  registry.registerComponent('securitySchemes', 'serviceDomain', {
    type: 'apiKey',
    in: 'header',
    name: 'x-service-domain',
    description: 'The account, as `/<account>/master`; with the credentials on every request of the interface.',
  });
  for (const operation of OPERATIONS) registry.registerPath(operation);
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Choreo Execution Service',
      version: '1.0',
      description:
        'Runs Choreos — packaged, multi-step integration procedures. Every request and answer of the interface is JSON or XML, as Content-Type and Accept say; ' +
        'every error has the one shape `{"error": {"message", "code", "requestId"}}` (XML `<error>` alike). Every answer carries `X-Request-Id` ' +
        '(a caller may send its own). Operations marked Extension go beyond the specification.',
    },
    tags: [
      { name: 'Choreos', description: 'The catalogue, as the credentials may see it, and runs.' },
      { name: 'Executions', description: 'Runs, while and after they go.' },
      { name: 'Account Choreos', description: "Extension: the account's own Choreos." },
      { name: 'Presets', description: 'Extension: stored input sets.' },
      { name: 'Webhooks', description: "Extension: runs' events sent to the account's endpoints, signed as Standard Webhooks." },
      { name: 'Schedules', description: 'Extension: runs started at set times.' },
      { name: 'Callbacks', description: 'Public URLs that runs hand out.' },
      { name: 'Service', description: 'Probes and this document.' },
    ],
  });
}
