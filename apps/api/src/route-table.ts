import { RUN_CALLBACK_PATH } from '@ces/store';
import { BASE_PATH } from './base-path.ts';

const BASE_PATH_PATTERN = BASE_PATH.replaceAll('.', '\\.');

/** Every path the service answers outside `/ops` and `/metrics`, and its methods; the OpenAPI document must describe each. */
export const ROUTES: readonly { pattern: RegExp; methods: string[] }[] = [
  { pattern: new RegExp(`^${BASE_PATH_PATTERN}/openapi\\.json$`), methods: ['GET'] },
  { pattern: new RegExp(`^${BASE_PATH_PATTERN}/docs$`), methods: ['GET'] },
  { pattern: new RegExp(`^${BASE_PATH_PATTERN}/choreos$`), methods: ['GET'] },
  { pattern: new RegExp(`^${BASE_PATH_PATTERN}/choreos/.+$`), methods: ['GET', 'POST', 'PUT', 'DELETE'] },
  { pattern: new RegExp(`^${BASE_PATH_PATTERN}/choreo-executions$`), methods: ['GET'] },
  { pattern: new RegExp(`^${BASE_PATH_PATTERN}/choreo-executions/[^/]+$`), methods: ['GET', 'DELETE'] },
  { pattern: new RegExp(`^${BASE_PATH_PATTERN}/choreo-executions/[^/]+/events$`), methods: ['GET'] },
  { pattern: new RegExp(`^${BASE_PATH_PATTERN}/choreo-executions/[^/]+/redrive$`), methods: ['POST'] },
  { pattern: new RegExp(`^${BASE_PATH_PATTERN}/presets$`), methods: ['GET'] },
  { pattern: new RegExp(`^${BASE_PATH_PATTERN}/presets/[^/]+$`), methods: ['GET', 'PUT', 'DELETE'] },
  { pattern: new RegExp(`^${BASE_PATH_PATTERN}/webhooks$`), methods: ['GET'] },
  { pattern: new RegExp(`^${BASE_PATH_PATTERN}/webhooks/[^/]+$`), methods: ['GET', 'PUT', 'DELETE'] },
  { pattern: new RegExp(`^${BASE_PATH_PATTERN}/webhooks/[^/]+/rotate-secret$`), methods: ['POST'] },
  { pattern: new RegExp(`^${BASE_PATH_PATTERN}/webhooks/[^/]+/deliveries$`), methods: ['GET'] },
  { pattern: new RegExp(`^${BASE_PATH_PATTERN}/webhooks/[^/]+/deliveries/[^/]+/redeliver$`), methods: ['POST'] },
  { pattern: new RegExp(`^${BASE_PATH_PATTERN}/schedules$`), methods: ['GET'] },
  { pattern: new RegExp(`^${BASE_PATH_PATTERN}/schedules/[^/]+$`), methods: ['GET', 'PUT', 'DELETE'] },
  { pattern: new RegExp(`^${BASE_PATH_PATTERN}/schedules/[^/]+/(pause|resume|trigger|backfill)$`), methods: ['POST'] },
  { pattern: /^\/(healthz|readyz)$/, methods: ['GET'] },
  { pattern: new RegExp(`^${RUN_CALLBACK_PATH}/[^/]+$`), methods: ['POST'] },
];

/** The methods a path answers to, for 405 and its Allow header; empty when the path is unknown. */
export function allowedMethods(path: string): string[] {
  return ROUTES.find(({ pattern }) => pattern.test(path))?.methods ?? [];
}
