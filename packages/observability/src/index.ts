export { createLogger, REDACTED_PATHS, type Logger } from './logger.ts';
