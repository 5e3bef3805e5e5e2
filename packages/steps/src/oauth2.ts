import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { defineStepKind, type StepContext, StepFailedError, type StepKind } from '@ces/language';
import {
  awaitRedirect,
  CALLBACK_ID,
  callbacksOf,
  finalizeFailure,
  finalizeWaitArgs,
  MAX_FINALIZE_SECONDS,
  oauthEndpoint as endpoint,
  secretText,
} from './oauth-callback.ts';

/**
 * A request to a token endpoint, made by the HTTP step itself: the same egress policy, timeouts and
 * size limits as any HTTP request of a Choreo.
 */
async function tokenRequest(httpStep: StepKind, url: string, form: Record<string, string>, context: StepContext) {
  const args = httpStep.argsSchema.parse({
    method: 'POST',
    url,
    headers: { accept: 'application/json' },
    body: new URLSearchParams(form).toString(),
    contentType: 'application/x-www-form-urlencoded',
  });
  const response = (await httpStep.run(args, context)) as { status: number; body: string };
  return response;
}

/** The OAuth 2.0 authorization code flow (RFC 6749, 4.1) on top of the account's callback URLs. */
export function createOAuth2Steps(httpStep: StepKind): readonly StepKind[] {
  return [
    defineStepKind({
      kind: 'oauth2.initialize',
      description:
        "Starts an OAuth 2.0 authorization: registers a callback URL of the run's account (`callbackId`, random when empty) as the redirect URI, recording only redirects that carry a fresh random `state`, and builds the authorization URL for the user (`authorizationEndpoint` with response_type=code, client_id, redirect_uri, state, and `scope` when given). Result: `{ authorizationUrl, callbackId }`.",
      argsSchema: z.strictObject({
        authorizationEndpoint: endpoint,
        clientId: z.string().min(1).max(2000),
        scope: z.string().max(2000).default(''),
        callbackId: z.union([z.literal(''), z.string().regex(CALLBACK_ID, 'a callback id is letters, digits, periods and hyphens')]).default(''),
        forwardingUrl: z.union([z.literal(''), endpoint]).default(''),
      }),
      example: { authorizationEndpoint: '{{inputs.RequestTokenEndpoint}}', clientId: '{{inputs.ClientID}}', scope: '{{inputs.Scope}}' },
      run: async (args, context) => {
        const state = randomBytes(24).toString('base64url');
        const { id, url } = await callbacksOf(context).register({
          ...(args.callbackId !== '' ? { id: args.callbackId } : {}),
          ...(args.forwardingUrl !== '' ? { forwardingUrl: args.forwardingUrl } : {}),
          filter: { name: 'state', value: state },
        });
        const authorization = new URL(args.authorizationEndpoint);
        authorization.searchParams.set('response_type', 'code');
        authorization.searchParams.set('client_id', args.clientId);
        authorization.searchParams.set('redirect_uri', url);
        authorization.searchParams.set('state', state);
        if (args.scope !== '') authorization.searchParams.set('scope', args.scope);
        return { authorizationUrl: authorization.toString(), callbackId: id };
      },
    }),
    defineStepKind({
      kind: 'oauth2.finalize',
      secretResult: true,
      description: `Finishes an OAuth 2.0 authorization: waits up to \`timeoutSeconds\` (default 20, at most ${MAX_FINALIZE_SECONDS}) for the user's redirect to the callback \`callbackId\`, then exchanges its code at \`tokenEndpoint\` (through the HTTP steps' egress policy) with the client's id and secret. A denial (\`error\` in the redirect) or a refused exchange fails the step, or with \`suppressErrors\` is returned in \`errorMessage\`. Result: \`{ response, errorMessage }\` (the token endpoint's body).`,
      argsSchema: z.strictObject({
        tokenEndpoint: endpoint,
        ...finalizeWaitArgs,
        clientId: z.string().min(1).max(2000),
        clientSecret: secretText,
      }),
      defaultTimeoutMs: (MAX_FINALIZE_SECONDS + 30) * 1000,
      example: {
        tokenEndpoint: '{{inputs.AccessTokenEndpoint}}',
        callbackId: '{{inputs.CallbackID}}',
        clientId: '{{inputs.ClientID}}',
        clientSecret: '{{inputs.ClientSecret}}',
        timeoutSeconds: '{{inputs.Timeout}}',
      },
      run: async (args, context) => {
        const fail = finalizeFailure(args.suppressErrors);
        const redirect = await awaitRedirect(context, args.callbackId, args.timeoutSeconds, (request) => request.query.code || request.query.error);
        if (!redirect) return fail(`no authorization reached the callback within ${args.timeoutSeconds} seconds`);
        if (redirect.query.error) return fail(`the authorization was refused: ${redirect.query.error.slice(0, 200)}`);
        const response = await tokenRequest(
          httpStep,
          args.tokenEndpoint,
          {
            grant_type: 'authorization_code',
            code: redirect.query.code ?? '',
            redirect_uri: callbacksOf(context).url(args.callbackId),
            client_id: args.clientId,
            client_secret: args.clientSecret,
          },
          context,
        );
        if (response.status >= 400) return fail(`the token endpoint answered ${response.status}: ${response.body.slice(0, 500)}`);
        return { response: response.body, errorMessage: '' };
      },
    }),
    defineStepKind({
      kind: 'oauth2.refresh',
      secretResult: true,
      description:
        "Exchanges an OAuth 2.0 refresh token for a new access token at `tokenEndpoint` (through the HTTP steps' egress policy), with the client's id and secret; fails when the endpoint refuses. Result: `{ response }` (the endpoint's body).",
      argsSchema: z.strictObject({ tokenEndpoint: endpoint, clientId: z.string().min(1).max(2000), clientSecret: secretText, refreshToken: secretText }),
      example: {
        tokenEndpoint: '{{inputs.AccessTokenEndpoint}}',
        clientId: '{{inputs.ClientID}}',
        clientSecret: '{{inputs.ClientSecret}}',
        refreshToken: '{{inputs.RefreshToken}}',
      },
      run: async (args, context) => {
        const response = await tokenRequest(
          httpStep,
          args.tokenEndpoint,
          { grant_type: 'refresh_token', refresh_token: args.refreshToken, client_id: args.clientId, client_secret: args.clientSecret },
          context,
        );
        if (response.status >= 400)
          throw new StepFailedError(`the token endpoint answered ${response.status}: ${response.body.slice(0, 500)}`, { retryable: false });
        return { response: response.body };
      },
    }),
  ];
}
