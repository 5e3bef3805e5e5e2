import { createHmac } from 'node:crypto';
import type OAuth from 'oauth-1.0a';
import { z } from 'zod';
import { libraryOnFirstUse } from '@ces/formats';
import { defineStepKind, type StepContext, StepFailedError, type StepKind } from '@ces/language';
import {
  awaitRedirect,
  callbacksOf,
  finalizeFailure,
  finalizeWaitArgs,
  MAX_FINALIZE_SECONDS,
  oauthEndpoint as endpoint,
  secretText,
} from './oauth-callback.ts';

const oauth1 = libraryOnFirstUse<typeof OAuth>('oauth-1.0a');

/** A signer of OAuth 1.0a requests (RFC 5849) with HMAC-SHA1, the method services implement. */
function signer(consumer: { key: string; secret: string }): OAuth {
  const OAuthSigner = oauth1();
  return new OAuthSigner({
    consumer,
    signature_method: 'HMAC-SHA1',
    hash_function: (base, key) => createHmac('sha1', key).update(base).digest('base64'),
  });
}

/**
 * A signed POST with its parameters form-encoded in the body (and so in the signature), made by
 * the HTTP step itself: the same egress policy, timeouts and limits as any HTTP request.
 */
async function signedPost(
  httpStep: StepKind,
  oauth: OAuth,
  url: string,
  data: Record<string, string>,
  token: { key: string; secret: string } | undefined,
  context: StepContext,
): Promise<{ status: number; body: string }> {
  const authorization = oauth.toHeader(oauth.authorize({ url, method: 'POST', data }, token));
  const args = httpStep.argsSchema.parse({
    method: 'POST',
    url,
    headers: { ...authorization },
    body: new URLSearchParams(data).toString(),
    contentType: 'application/x-www-form-urlencoded',
  });
  return (await httpStep.run(args, context)) as { status: number; body: string };
}

/** The OAuth 1.0a flow (RFC 5849: temporary credentials, authorization, token credentials). */
export function createOAuth1Steps(httpStep: StepKind): readonly StepKind[] {
  return [
    defineStepKind({
      kind: 'oauth1.initialize',
      secretResult: true,
      description:
        "Starts an OAuth 1.0a authorization: registers a callback URL of the run's account as `oauth_callback`, asks `requestTokenEndpoint` for temporary credentials with a signed request (HMAC-SHA1, through the HTTP steps' egress policy), and builds the authorization URL (`authorizationEndpoint` with `oauth_token`). The callback records only redirects for that token. Result: `{ authorizationUrl, callbackId, tokenSecret }`.",
      argsSchema: z.strictObject({
        requestTokenEndpoint: endpoint,
        authorizationEndpoint: endpoint,
        consumerKey: z.string().min(1).max(2000),
        consumerSecret: secretText,
        forwardingUrl: z.union([z.literal(''), endpoint]).default(''),
      }),
      example: {
        requestTokenEndpoint: '{{inputs.RequestTokenEndpoint}}',
        authorizationEndpoint: '{{inputs.AuthorizationEndpoint}}',
        consumerKey: '{{inputs.ConsumerKey}}',
        consumerSecret: '{{inputs.ConsumerSecret}}',
      },
      run: async (args, context) => {
        const callbacks = callbacksOf(context);
        const forwarding = args.forwardingUrl !== '' ? { forwardingUrl: args.forwardingUrl } : {};
        const { id, url } = await callbacks.register(forwarding);
        const oauth = signer({ key: args.consumerKey, secret: args.consumerSecret });
        const response = await signedPost(httpStep, oauth, args.requestTokenEndpoint, { oauth_callback: url }, undefined, context);
        if (response.status >= 400) {
          throw new StepFailedError(`the request token endpoint answered ${response.status}: ${response.body.slice(0, 500)}`, { retryable: false });
        }
        const temporary = new URLSearchParams(response.body);
        const token = temporary.get('oauth_token');
        const tokenSecret = temporary.get('oauth_token_secret');
        if (!token || tokenSecret === null)
          throw new StepFailedError('the request token endpoint answered no oauth_token and oauth_token_secret', { retryable: false });
        // From now on only the redirect for this token is recorded.
        await callbacks.register({ id, ...forwarding, filter: { name: 'oauth_token', value: token } });
        const authorization = new URL(args.authorizationEndpoint);
        authorization.searchParams.set('oauth_token', token);
        return { authorizationUrl: authorization.toString(), callbackId: id, tokenSecret };
      },
    }),
    defineStepKind({
      kind: 'oauth1.finalize',
      secretResult: true,
      description: `Finishes an OAuth 1.0a authorization: waits up to \`timeoutSeconds\` (default 20, at most ${MAX_FINALIZE_SECONDS}) for the user's redirect to callback \`callbackId\`, then exchanges its \`oauth_token\` and \`oauth_verifier\` at \`accessTokenUrl\` with a request signed with the consumer's and the temporary token's secrets. Failures fail the step, or with \`suppressErrors\` are returned in \`errorMessage\`. Result: \`{ response, errorMessage }\`.`,
      argsSchema: z.strictObject({
        accessTokenUrl: endpoint,
        ...finalizeWaitArgs,
        consumerKey: z.string().min(1).max(2000),
        consumerSecret: secretText,
        tokenSecret: z.string().max(10_000),
      }),
      defaultTimeoutMs: (MAX_FINALIZE_SECONDS + 30) * 1000,
      example: {
        accessTokenUrl: '{{inputs.AccessTokenURL}}',
        callbackId: '{{inputs.CallbackID}}',
        consumerKey: '{{inputs.ConsumerKey}}',
        consumerSecret: '{{inputs.ConsumerSecret}}',
        tokenSecret: '{{inputs.OAuthTokenSecret}}',
      },
      run: async (args, context) => {
        const fail = finalizeFailure(args.suppressErrors);
        const redirect = await awaitRedirect(context, args.callbackId, args.timeoutSeconds, (request) => request.query.oauth_verifier || request.query.denied);
        if (!redirect) return fail(`no authorization reached the callback within ${args.timeoutSeconds} seconds`);
        const token = redirect.query.oauth_token ?? '';
        const verifier = redirect.query.oauth_verifier;
        if (!verifier) return fail('the authorization was refused');
        const oauth = signer({ key: args.consumerKey, secret: args.consumerSecret });
        const response = await signedPost(
          httpStep,
          oauth,
          args.accessTokenUrl,
          { oauth_verifier: verifier },
          { key: token, secret: args.tokenSecret },
          context,
        );
        if (response.status >= 400) return fail(`the access token endpoint answered ${response.status}: ${response.body.slice(0, 500)}`);
        return { response: response.body, errorMessage: '' };
      },
    }),
  ];
}
