import type { Principal } from '@ces/accounts';
import { html } from 'hono/html';
import type { Html } from './console-html.ts';
import { ASSETS_PATH, CONSOLE_PATH, SIGN_OUT_PATH } from './console-path.ts';

/** The pages of the navigation: an account's credentials see its runs, schedules and webhooks; operators the runs, workers and queues. */
export type ConsoleSection = 'runs' | 'schedules' | 'webhooks' | 'workers' | 'queues';

export interface PageFrame {
  title: string;
  /** Absent on pages shown signed out (sign in, errors before a session). */
  signedIn?: { principal: Principal; csrf: string };
  section?: ConsoleSection;
  body: Html;
}

function who(principal: Principal): string {
  return principal.kind === 'operator' ? `${principal.name} (operator)` : `${principal.name} · ${principal.account}`;
}

function navigation(principal: Principal, section: ConsoleSection | undefined): Html {
  const links: [ConsoleSection, string, string][] = [['runs', 'Runs', `${CONSOLE_PATH}/runs`]];
  if (principal.kind !== 'operator') links.push(['schedules', 'Schedules', `${CONSOLE_PATH}/schedules`]);
  // An application without the right is refused the page, as the API refuses it the webhooks.
  if (principal.kind !== 'operator' && principal.rights.includes('webhooks')) links.push(['webhooks', 'Webhooks', `${CONSOLE_PATH}/webhooks`]);
  if (principal.kind === 'operator') links.push(['workers', 'Workers', `${CONSOLE_PATH}/workers`], ['queues', 'Queues', `${CONSOLE_PATH}/queues`]);
  return html`<nav aria-label="Console"><ul>${links.map(
    ([name, label, href]) => html`<li><a href="${href}"${name === section ? html` aria-current="page"` : ''}>${label}</a></li>`,
  )}</ul></nav>`;
}

/** Every console page: one banner with the navigation and the sign-out button, one main landmark. */
export function pageLayout(frame: PageFrame): Html {
  const { signedIn } = frame;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${frame.title} · Choreo console</title>
<link rel="stylesheet" href="${ASSETS_PATH}/console.css">
<script src="${ASSETS_PATH}/console.js" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header>
<p class="brand"><a href="${CONSOLE_PATH}/runs">Choreo console</a></p>
${
  signedIn
    ? html`${navigation(signedIn.principal, frame.section)}
<form class="sign-out" method="post" action="${SIGN_OUT_PATH}">
<span>Signed in as ${who(signedIn.principal)}</span>
<input type="hidden" name="csrf" value="${signedIn.csrf}">
<button type="submit">Sign out</button>
</form>`
    : ''
}
</header>
<main id="main">
<h1>${frame.title}</h1>
${frame.body}
</main>
</body>
</html>`;
}
