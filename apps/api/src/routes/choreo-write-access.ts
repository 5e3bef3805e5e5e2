import { mayAccessChoreo, type Principal } from '@ces/accounts';
import { isValidChoreoId } from '@ces/catalogue';
import { ApiError } from '../errors/api-error.ts';
import type { ChoreoLookup } from '../runs/choreo-lookup.ts';

/**
 * Refuses a write (PUT or DELETE) of `id` the principal may not make: the shared catalogue's ids,
 * an application not granted the `choreos` right, and ids outside the credential's patterns. Each
 * is 403, which tells only what the credential itself could read in its own account file.
 */
export function checkChoreoWrite(lookup: ChoreoLookup, principal: Principal, id: string): void {
  if (!isValidChoreoId(id)) {
    throw new ApiError('BAD_REQUEST', 'A Choreo id is segments of letters, digits, "_", "-" and "." (not starting with "." or "-"), each after a "/".');
  }
  if (lookup.isShared(id)) throw new ApiError('FORBIDDEN', 'The Choreos of the shared catalogue (/Library/…) cannot be written.');
  if (!principal.rights.includes('choreos')) throw new ApiError('FORBIDDEN', 'This application may not write Choreos: it needs the "choreos" right.');
  if (!mayAccessChoreo(principal.choreos, id)) throw new ApiError('FORBIDDEN', 'These credentials may not write a Choreo under this id.');
}
