/** What the global setup provides to every test file through `inject`. */
declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
    /** Data folder of a Redis the suite started itself ('' otherwise). */
    redisDataDir: string;
  }
}

export {};
