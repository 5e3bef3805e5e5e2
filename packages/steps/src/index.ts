export { createStepLibrary, DEFAULT_STEP_LIBRARY_OPTIONS } from './step-library.ts';
export type { StepLibraryOptions } from './step-library.ts';
export { createHttpPoster, type HttpPoster } from './http-poster.ts';
export type { HttpStepOptions } from './http-request.ts';
