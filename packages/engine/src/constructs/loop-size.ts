import { jsonLength } from '@ces/language';

/** The running length of a loop's list of results, which becomes one step result. */
export class LoopSize {
  private chars = 2;
  private readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
  }

  /** Adds a result; tells whether the list is now too long. */
  add(result: unknown): boolean {
    this.chars += jsonLength(result, this.limit) + 1;
    return this.chars > this.limit;
  }
}
