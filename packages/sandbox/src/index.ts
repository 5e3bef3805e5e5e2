export { DEFAULT_CODE_LIMITS } from './quickjs-runner.ts';
export { createSandbox } from './sandbox.ts';
export type { Sandbox } from './sandbox.ts';
