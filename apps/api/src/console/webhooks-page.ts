import type { Delivery, WebhookDescription } from '@ces/store';
import { Hono } from 'hono';
import { html } from 'hono/html';
import type { AppEnv } from '../app-env.ts';
import type { WebhookRouteDeps } from '../routes/webhook-deps.ts';
import { redeliverDelivery } from '../webhooks/redeliver-delivery.ts';
import { NOTIFY_WEBHOOK, requireWebhookWriter, WEBHOOK_NAME } from '../webhooks/webhook-access.ts';
import type { Html } from './console-html.ts';
import { CONSOLE_PATH, runPath } from './console-path.ts';
import { formatTime } from './console-times.ts';
import { pageLayout } from './page-layout.ts';

/** Deliveries shown per subscription: the newest; the API lists more. */
const DELIVERIES_SHOWN = 20;

const WEBHOOKS_PATH = `${CONSOLE_PATH}/webhooks`;
const sectionId = (name: string) => `webhook-${name}`;

function deliveryRow(webhook: string, delivery: Delivery, csrf: string): Html {
  return html`<tr>
<td>${delivery.type}</td>
<td><a href="${runPath(delivery.executionId)}"><code>${delivery.executionId}</code></a></td>
<td>${delivery.attempts}</td>
<td>${delivery.lastStatus === undefined ? '' : delivery.lastStatus === 0 ? 'no answer' : delivery.lastStatus}${
    delivery.lastError ? html`<span class="hint">${delivery.lastError}</span>` : ''
  }</td>
<td>${delivery.state === 'pending' ? formatTime(delivery.nextAttempt) : ''}</td>
<td>${delivery.state}${delivery.deliveredAt !== undefined && delivery.state === 'delivered' ? html`<span class="hint">${formatTime(delivery.deliveredAt)}</span>` : ''}</td>
<td><form method="post" action="${WEBHOOKS_PATH}/${webhook}/deliveries/${delivery.id}/redeliver">
<input type="hidden" name="csrf" value="${csrf}">
<button type="submit" aria-label="Redeliver ${delivery.type} of ${delivery.executionId}">Redeliver</button>
</form></td>
</tr>`;
}

function deliveriesTable(webhook: string, deliveries: Delivery[], csrf: string): Html {
  if (deliveries.length === 0) return html`<p>No delivery yet.</p>`;
  return html`<table class="deliveries">
<caption>Newest deliveries of ${webhook}${deliveries.length === DELIVERIES_SHOWN ? `, the last ${DELIVERIES_SHOWN}` : ''}</caption>
<thead><tr><th scope="col">Event</th><th scope="col">Run</th><th scope="col">Attempts</th><th scope="col">Last status</th><th scope="col">Next attempt</th><th scope="col">Outcome</th><th scope="col">Again</th></tr></thead>
<tbody>${deliveries.map((delivery) => deliveryRow(webhook, delivery, csrf))}</tbody>
</table>`;
}

function subscription(webhook: WebhookDescription, deliveries: Delivery[], csrf: string): Html {
  return html`<section id="${sectionId(webhook.name)}" aria-labelledby="${sectionId(webhook.name)}-title">
<h2 id="${sectionId(webhook.name)}-title">${webhook.name}</h2>
<dl class="facts">
<dt>URL</dt><dd><code>${webhook.url}</code></dd>
<dt>Events</dt><dd>${webhook.events.join(', ')}</dd>
<dt>Choreos</dt><dd>${webhook.choreos ? webhook.choreos.join(', ') : 'every run its writer may see'}</dd>
<dt>State</dt><dd>${webhook.disabled ? html`<span class="problem">disabled</span> since ${formatTime(webhook.disabled.at)}: ${webhook.disabled.reason}` : 'active'}</dd>
</dl>
${deliveriesTable(webhook.name, deliveries, csrf)}
</section>`;
}

/**
 * `GET /console/webhooks`: the account's subscriptions (never a secret) and each one's newest
 * deliveries, as `GET …/webhooks` and `…/deliveries` show them, with a `Redeliver` button that does
 * what `POST …/redeliver` does. The same right as the API's: an application needs "webhooks".
 */
export function webhooksPage(deps: { webhooks?: WebhookRouteDeps }) {
  return new Hono<AppEnv>()
    .get('/webhooks', async (c) => {
      const principal = c.get('principal');
      const csrf = c.get('consoleSession').csrf;
      const layout = (body: Html) => c.html(pageLayout({ title: 'Webhooks', section: 'webhooks', signedIn: { principal, csrf }, body }));
      if (principal.kind === 'operator') {
        return layout(
          html`<p>Webhooks belong to their accounts, and <code>/ops</code> does not show them: an account's credentials see its webhooks here.</p>`,
        );
      }
      requireWebhookWriter(principal, 'read webhooks');
      if (!deps.webhooks) return layout(html`<p>Webhooks are not available: this service has no key to keep their secrets with.</p>`);
      const { store, deliveries } = deps.webhooks;
      const [webhooks, notify] = await Promise.all([store.list(principal.account), store.notifySecret(principal.account)]);
      const sections = await Promise.all(
        webhooks.map(async (webhook) => subscription(webhook, await deliveries.recent(principal.account, webhook.name, DELIVERIES_SHOWN), csrf)),
      );
      const notifySection = notify
        ? html`<section id="${sectionId(NOTIFY_WEBHOOK)}" aria-labelledby="${sectionId(NOTIFY_WEBHOOK)}-title">
<h2 id="${sectionId(NOTIFY_WEBHOOK)}-title">Runs' own call-backs (notify)</h2>
${deliveriesTable(NOTIFY_WEBHOOK, await deliveries.recent(principal.account, NOTIFY_WEBHOOK, DELIVERIES_SHOWN), csrf)}
</section>`
        : '';
      const redelivered = c.req.query('redelivered');
      const status = redelivered ? html`<p role="status">The delivery is queued again; its new attempts show below.</p>` : '';
      const body =
        webhooks.length === 0 && !notify
          ? html`<p>This account has no webhook. Webhooks are written through the API (<code>PUT …/webhooks/&lt;name&gt;</code>).</p>`
          : html`${status}${sections}${notifySection}`;
      return layout(body);
    })
    .post('/webhooks/:name/deliveries/:id/redeliver', async (c) => {
      const name = c.req.param('name');
      await redeliverDelivery(deps.webhooks, c.get('principal'), name, c.req.param('id'));
      // The name was checked by the redelivery; the fragment takes the reader back to its section.
      return c.redirect(`${WEBHOOKS_PATH}?redelivered=1#${WEBHOOK_NAME.test(name) ? sectionId(name) : ''}`, 303);
    });
}
