import type { ThankYouHost } from "../../../../extensions/svc-post-purchase/src/host";
import type { CheckoutHostConfig } from "./config";
import { createI18n } from "./i18n";
import { HostSignal, installShopifyGlobal } from "./signals";

/*
 * The local store's host for a checkout UI extension block (the Thank-you page's
 * purchase.thank-you.block.render): runs in the block's frame before the extension's bundle and
 * defines the global `shopify` from the page's configuration. Session tokens come from the store
 * over a same-origin endpoint, as Shopify's host gets them from Shopify.
 */

/** A token is asked for again this long before it expires. */
const TOKEN_MARGIN_SECONDS = 30;

function sessionTokens(url: string): ThankYouHost["sessionToken"] {
  let cached: { token: string; expiresAt: number } | undefined;
  return {
    get: async () => {
      if (cached && cached.expiresAt - TOKEN_MARGIN_SECONDS > Date.now() / 1000)
        return cached.token;
      const response = await fetch(url, { method: "POST", credentials: "same-origin" });
      if (!response.ok) throw new Error(`The store refused a session token: ${response.status}`);
      cached = (await response.json()) as { token: string; expiresAt: number };
      return cached.token;
    },
  };
}

const config = (globalThis as unknown as { __svcHostConfig: CheckoutHostConfig }).__svcHostConfig;
const host: ThankYouHost = {
  orderConfirmation: new HostSignal(config.orderConfirmation),
  sessionToken: sessionTokens(config.sessionTokenUrl),
  i18n: createI18n(config),
};
installShopifyGlobal(host);

// The Polaris stand-ins are plain elements: a click on a link opens it as s-link would.
document.addEventListener("click", (event) => {
  const link = (event.target as Element | null)?.closest?.("s-link[href]");
  if (!link) return;
  window.open(link.getAttribute("href") ?? "", link.getAttribute("target") ?? "_top");
});

// The block's frame grows with what the extension renders (the page and frame share an origin).
// Nothing rendered, no height: the slot takes no room while the extension asks or shows nothing.
const fitFrame = () => {
  const frame = window.frameElement as HTMLElement | null;
  if (frame) frame.style.height = `${Math.ceil(document.body.getBoundingClientRect().height)}px`;
};
document.addEventListener("DOMContentLoaded", () =>
  new ResizeObserver(fitFrame).observe(document.body),
);
