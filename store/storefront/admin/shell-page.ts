/*
 * The local admin's page around the app: plain HTML and CSS in Polaris's spirit (no external
 * requests), its behaviour in shell.js. The page is built on the server with the first frame URL
 * (and its session token) already in place, so the app starts loading with the page.
 */

export interface AdminShellConfig {
  handle: string;
  appName: string;
  shop: string;
  shopName: string;
  /** `/admin/apps/<handle>`: the admin's URL of the app's root. */
  adminBase: string;
  appOrigin: string;
  /** The installed app's URL, without a trailing slash. */
  appBase: string;
  host: string;
  locale: string;
  frameUrl: string;
}

export function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

/** JSON inside a <script>: nothing in it can close the element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replaceAll("<", "\\u003c").replaceAll("\u2028", "\\u2028");
}

function topBar(shopName: string | undefined): string {
  const shop = shopName
    ? `<div class="svc-admin-shop"><span class="svc-admin-avatar" aria-hidden="true">${escapeHtml(shopName.slice(0, 2).toUpperCase())}</span>${escapeHtml(shopName)}</div>`
    : "";
  return `<header class="svc-admin-topbar">
  <div class="svc-admin-brand"><span class="svc-admin-logo" aria-hidden="true">S</span>Local admin <span class="svc-admin-badge" title="A development and test stand-in for Shopify's admin">dev</span></div>
  ${shop}
</header>`;
}

function document(title: string, style: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${style}</style>
</head>
<body>
${body}
</body>
</html>`;
}

export function renderAdminShell(input: {
  config: AdminShellConfig;
  style: string;
  script: string;
}): string {
  const { config } = input;
  const appName = escapeHtml(config.appName);
  const body = `${topBar(config.shopName)}
<div class="svc-admin-layout">
  <nav class="svc-admin-nav" aria-label="Admin">
    <a class="svc-admin-nav-item" href="/" target="_blank" rel="noopener">Online Store</a>
    <div class="svc-admin-nav-heading">Apps</div>
    <a class="svc-admin-nav-item svc-admin-nav-app" href="${escapeHtml(config.adminBase)}" data-app-href="/" aria-current="page">
      <span class="svc-admin-app-icon" aria-hidden="true">${escapeHtml(config.appName.slice(0, 1).toUpperCase())}</span>${appName}
    </a>
    <ul class="svc-admin-nav-app-items" id="svc-admin-app-nav" aria-label="${appName}"></ul>
  </nav>
  <main class="svc-admin-main">
    <div class="svc-admin-titlebar">
      <span class="svc-admin-app-icon" aria-hidden="true">${escapeHtml(config.appName.slice(0, 1).toUpperCase())}</span>
      <h1 id="svc-admin-title">${appName}</h1>
      <div class="svc-admin-progress" id="svc-admin-progress" hidden></div>
    </div>
    <iframe id="svc-admin-frame" class="svc-admin-frame" name="app-iframe" title="${appName}" src="${escapeHtml(config.frameUrl)}"></iframe>
  </main>
</div>
<div class="svc-admin-toasts" id="svc-admin-toasts" role="status" aria-live="polite"></div>
<dialog class="svc-admin-picker" id="svc-admin-picker" aria-labelledby="svc-admin-picker-title"></dialog>
<script>window.__svcAdmin = ${scriptJson(config)};</script>
<script>${input.script}</script>`;
  return document(`${config.appName} · ${config.shopName} · Local admin`, input.style, body);
}

/** A page of the admin that cannot show the app, saying why and what to do. */
export function renderAdminNotice(input: {
  style: string;
  title: string;
  lines: string[];
  shopName: string | undefined;
}): string {
  const lines = input.lines.map((line) => `<p>${escapeHtml(line)}</p>`).join("\n");
  const body = `${topBar(input.shopName)}
<main class="svc-admin-notice">
  <h1>${escapeHtml(input.title)}</h1>
  ${lines}
</main>`;
  return document(`${input.title} · Local admin`, input.style, body);
}
