import { z } from 'zod';
import { type AccountTokens, defineStepKind, InvalidStepInputError, type StepContext, StepFailedError, type StepKind } from '@ces/language';
import { booleanArg, integerArg } from './arg-types.ts';
import { waitFor } from './control.ts';

/** The original documents 4096 characters at most for a token. */
export const MAX_TOKEN_LENGTH = 4096;
const MAX_TOKEN_NAME_LENGTH = 256;
/** A token lives at most ten years; 0 means it does not expire. */
const MAX_LIFETIME_SECONDS = 10 * 365 * 24 * 60 * 60;
/** How long RetrieveToken with LockToken tries for a lock another holds, as the original documents. */
export const LOCK_WAIT_MS = 60_000;
const LOCK_POLL_FIRST_MS = 50;
const LOCK_POLL_MAX_MS = 1000;
/** GetTokenDetails reads at most this many tokens at once. */
const MAX_DETAILS_NAMES = 100;

// Names end up in Redis key names: printable, without control characters, bounded.
const tokenName = z
  .string()
  .min(1, 'a token needs a name')
  .max(MAX_TOKEN_NAME_LENGTH, `a token name has at most ${MAX_TOKEN_NAME_LENGTH} characters`)
  .refine((name) => !/[\p{Cc}]/u.test(name), 'a token name may not hold control characters');

const asText = (value: boolean) => (value ? 'true' : 'false');

function tokensOf(context: StepContext): AccountTokens {
  if (!context.account) throw new StepFailedError('token storage is not available to this run: the worker has no SECRETS_KEY', { retryable: false });
  return context.account.tokens;
}

/**
 * Tries for the lock until `waitMs` has passed, polling a little less often each time; the wait
 * stops at once when the run is cancelled (StepAbortedError), having changed nothing.
 */
async function lockWithin(tokens: AccountTokens, name: string, waitMs: number, signal: AbortSignal) {
  const deadline = Date.now() + waitMs;
  let pause = LOCK_POLL_FIRST_MS;
  for (;;) {
    const attempt = await tokens.lock(name);
    if (attempt.outcome !== 'held' || Date.now() >= deadline) return attempt;
    await waitFor(Math.min(pause, Math.max(0, deadline - Date.now())), signal);
    pause = Math.min(pause * 2, LOCK_POLL_MAX_MS);
  }
}

export const tokenStorageSteps: readonly StepKind[] = [
  defineStepKind({
    kind: 'tokens.store',
    description: `Stores a token of the run's account under \`name\` (inserted, or replaced), valid and unlocked, sealed at rest; \`expiresSeconds\` is its lifetime (0: none). At most ${MAX_TOKEN_LENGTH} characters. Result: \`{ updated: "true" }\`.`,
    argsSchema: z.strictObject({
      name: tokenName,
      value: z.string().max(MAX_TOKEN_LENGTH, `a token has at most ${MAX_TOKEN_LENGTH} characters`),
      expiresSeconds: integerArg(0, MAX_LIFETIME_SECONDS).default(0),
    }),
    example: { name: '{{inputs.Name}}', value: '{{inputs.Value}}', expiresSeconds: '{{inputs.Expires}}' },
    run: async (args, context) => {
      await tokensOf(context).store(args.name, args.value, args.expiresSeconds);
      return { updated: 'true' };
    },
  }),
  defineStepKind({
    kind: 'tokens.retrieve',
    secretResult: true,
    description: `Reads a token of the run's account: \`{ token, valid, locked }\` (\`token\` "" when there is none or it expired). With \`lock\` "true" it also takes the token's lock, trying for up to \`waitMs\` (default ${LOCK_WAIT_MS}) while another holds it, and fails when it cannot.`,
    argsSchema: z.strictObject({ name: tokenName, lock: booleanArg.default(false), waitMs: integerArg(0, 10 * 60_000).default(LOCK_WAIT_MS) }),
    defaultTimeoutMs: LOCK_WAIT_MS + 15_000,
    example: { name: '{{inputs.Name}}', lock: '{{inputs.LockToken}}' },
    run: async (args, context) => {
      const tokens = tokensOf(context);
      if (!args.lock) {
        const token = await tokens.get(args.name);
        return { token: token?.value ?? '', valid: asText(token?.valid ?? false), locked: asText(token?.locked ?? false) };
      }
      const attempt = await lockWithin(tokens, args.name, args.waitMs, context.signal);
      if (attempt.outcome === 'absent') return { token: '', valid: 'false', locked: 'false' };
      if (attempt.outcome === 'held') {
        throw new StepFailedError(`the token stayed locked for ${Math.round(args.waitMs / 1000)} seconds`, { retryable: false });
      }
      return { token: attempt.token.value, valid: asText(attempt.token.valid), locked: 'true' };
    },
  }),
  defineStepKind({
    kind: 'tokens.lock',
    secretResult: true,
    description:
      'Takes the lock of a token of the run\'s account, unless another holds it: `{ token }`, the value when the lock was taken, "" when it was not (or there is no such token). A lock lasts until the token is stored again or deleted, or for a minute.',
    argsSchema: z.strictObject({ name: tokenName }),
    example: { name: '{{inputs.Name}}' },
    run: async (args, context) => {
      const attempt = await tokensOf(context).lock(args.name);
      return { token: attempt.outcome === 'taken' ? attempt.token.value : '' };
    },
  }),
  defineStepKind({
    kind: 'tokens.is-locked',
    description: 'Whether a token of the run\'s account is locked: `{ locked }` ("false" when there is no such token).',
    argsSchema: z.strictObject({ name: tokenName }),
    example: { name: '{{inputs.Name}}' },
    run: async (args, context) => ({ locked: asText((await tokensOf(context).get(args.name))?.locked ?? false) }),
  }),
  defineStepKind({
    kind: 'tokens.is-valid',
    description: 'Whether a token of the run\'s account is valid: `{ valid }` ("false" when there is no such token).',
    argsSchema: z.strictObject({ name: tokenName }),
    example: { name: '{{inputs.Name}}' },
    run: async (args, context) => ({ valid: asText((await tokensOf(context).get(args.name))?.valid ?? false) }),
  }),
  defineStepKind({
    kind: 'tokens.set-valid',
    description: 'Marks a token of the run\'s account valid or not: `{ updated }`, "false" when there is no such token.',
    argsSchema: z.strictObject({ name: tokenName, valid: booleanArg }),
    example: { name: '{{inputs.Name}}', valid: '{{inputs.Valid}}' },
    run: async (args, context) => ({ updated: asText(await tokensOf(context).setValid(args.name, args.valid)) }),
  }),
  defineStepKind({
    kind: 'tokens.delete',
    description: 'Deletes a token of the run\'s account: `{ deleted }`, "false" when there was none.',
    argsSchema: z.strictObject({ name: tokenName }),
    example: { name: '{{inputs.Name}}' },
    run: async (args, context) => ({ deleted: asText(await tokensOf(context).delete(args.name)) }),
  }),
  defineStepKind({
    kind: 'tokens.details',
    secretResult: true,
    description: `Reads several tokens of the run's account, \`names\` a JSON array of names (at most ${MAX_DETAILS_NAMES}): \`{ tokens }\`, the JSON text of an array of \`{name, value, valid, locked}\` for those that exist, in the order named.`,
    argsSchema: z.strictObject({ names: z.string() }),
    example: { names: '{{inputs.Names}}' },
    run: async (args, context) => {
      let names: unknown;
      try {
        names = JSON.parse(args.names);
      } catch {
        throw new InvalidStepInputError('Names must be a JSON array of token names, such as ["github", "slack"]');
      }
      if (!Array.isArray(names) || names.some((name) => !tokenName.safeParse(name).success)) {
        throw new InvalidStepInputError('Names must be a JSON array of token names, such as ["github", "slack"]');
      }
      if (names.length > MAX_DETAILS_NAMES) throw new InvalidStepInputError(`Names lists at most ${MAX_DETAILS_NAMES} tokens, not ${names.length}`);
      const tokens = tokensOf(context);
      const details: { name: string; value: string; valid: boolean; locked: boolean }[] = [];
      for (const name of [...new Set(names as string[])]) {
        const token = await tokens.get(name);
        if (token) details.push({ name, value: token.value, valid: token.valid, locked: token.locked });
      }
      return { tokens: JSON.stringify(details) };
    },
  }),
];
