import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';

/**
 * The console's one stylesheet. Colours keep at least 4.5:1 against their background (WCAG AA);
 * focus is always visible.
 */
export const CONSOLE_CSS = `
*{box-sizing:border-box}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1a1a1a;background:#fff}
a{color:#0b4fa8}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible{outline:3px solid #b35c00;outline-offset:2px}
.skip{position:absolute;left:-999px;top:0;background:#fff;padding:.5em}
.skip:focus{left:.5em}
header{display:flex;flex-wrap:wrap;align-items:center;gap:1em;padding:.5em 1em;border-bottom:1px solid #8a8a8a;background:#f4f6f8}
header .brand{margin:0;font-weight:700}
header nav ul{display:flex;gap:1em;list-style:none;margin:0;padding:0}
header nav a[aria-current=page]{font-weight:700}
.sign-out{margin-left:auto;display:flex;gap:.5em;align-items:center}
main{padding:1em;max-width:80em}
h1{font-size:1.5em;margin:.2em 0 .6em}
h2{font-size:1.2em;margin:1.2em 0 .4em}
label{font-weight:600}
input,select,button{font:inherit;padding:.3em .5em;border:1px solid #595959;border-radius:3px;background:#fff;color:#1a1a1a}
button{cursor:pointer;background:#e8edf3}
button.danger{background:#a4161a;color:#fff;border-color:#a4161a}
.hint{display:block;font-size:.9em;color:#4a4a4a}
.problem{color:#8b0000;font-weight:600}
.sign-in p{display:flex;flex-direction:column;max-width:24em}
.filters{display:flex;flex-wrap:wrap;gap:.5em 1.5em;align-items:end}
.filters p{margin:0}
table{border-collapse:collapse;margin:.5em 0;width:100%}
caption{text-align:left;font-weight:600;padding:.3em 0}
th,td{border-bottom:1px solid #c8c8c8;padding:.3em .5em;text-align:left;vertical-align:top}
pre{margin:0;white-space:pre-wrap;word-break:break-word;font-size:.95em}
.facts{display:grid;grid-template-columns:max-content 1fr;gap:.2em 1em}
.facts dt{font-weight:600}
.facts dd{margin:0}
.status-success,.outcome-succeeded{color:#1b5e20}
.status-error,.outcome-failed{color:#8b0000}
.status-running{color:#0b4fa8}
.status-terminated_manually,.status-terminated_limit,.outcome-stopped{color:#6a3d00}
.error{color:#8b0000}
.masked{font-family:monospace}
.pages{display:flex;gap:1em;margin:.5em 0}
.plain{list-style:none;margin:0;padding:0}
.timeline .bar-cell{width:30%;min-width:8em}
.bar{display:block;width:100%;height:.8em;background:#eef1f4}
.bar-succeeded{fill:#2e7d32}
.bar-failed{fill:#c62828}
.bar-stopped{fill:#a15c00}
.dropped td{font-style:italic}
.actions{margin:.5em 0}
`;

/**
 * The console's one script, for what plain HTML cannot do: a run page follows its run through
 * Server-Sent Events, and the workers' and queues' pages refresh themselves. Each swaps in the same
 * part of a fresh copy of its page. Every page reads the same without it.
 */
export const CONSOLE_JS = `'use strict';
(function () {
  function fetchPart(id, from) {
    return fetch(from, { headers: { accept: 'text/html' }, credentials: 'same-origin' }).then(function (res) {
      if (!res.ok || res.redirected) return null;
      return res.text().then(function (text) {
        var fresh = new DOMParser().parseFromString(text, 'text/html').getElementById(id);
        var current = document.getElementById(id);
        if (!fresh || !current) return null;
        current.replaceWith(document.importNode(fresh, true));
        return document.getElementById(id);
      });
    });
  }
  var polled = document.querySelector('[data-refresh]');
  if (polled) {
    var id = polled.id, from = polled.getAttribute('data-refresh-from'), every = Number(polled.getAttribute('data-refresh'));
    setInterval(function () { fetchPart(id, from).catch(function () {}); }, every);
  }
  var run = document.getElementById('run');
  var live = run && run.getAttribute('data-live');
  if (live) {
    var source = new EventSource(live);
    var busy = false, again = false, ended = false;
    var update = function () {
      if (busy) { again = true; return; }
      busy = true;
      fetchPart('run', location.pathname + location.search).catch(function () {}).then(function () {
        busy = false;
        if (again) { again = false; update(); }
      });
    };
    ['changed', 'step.started', 'step.ended', 'iteration.started', 'iteration.ended', 'wait.started', 'child.started'].forEach(function (type) {
      source.addEventListener(type, update);
    });
    source.addEventListener('execution.ended', function () {
      ended = true;
      source.close();
      update();
    });
    source.onerror = function () { if (ended) source.close(); };
  }
})();
`;

/** `GET /console/assets/console.css|js`: the console's stylesheet and script, from this origin. */
export function consoleAssets() {
  const cache = { 'Cache-Control': 'no-cache' };
  return new Hono<AppEnv>()
    .get('/assets/console.css', (c) => c.body(CONSOLE_CSS, 200, { 'Content-Type': 'text/css; charset=utf-8', ...cache }))
    .get('/assets/console.js', (c) => c.body(CONSOLE_JS, 200, { 'Content-Type': 'text/javascript; charset=utf-8', ...cache }));
}
