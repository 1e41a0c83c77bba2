import type { StoreActions, StoreShop } from "../model";
import type { AppConfig } from "./app-config";
import { adminHostParameter, recordGrant, SHOP_OWNER_USER_ID, type AccessGrants } from "./oauth";
import { mintSessionToken } from "./session-token";

/*
 * Installing without a browser, as Shopify's managed installation does for an embedded app that
 * uses token exchange: the grant is recorded with the scopes of shopify.app.toml, then the admin
 * loads the app with a fresh session token (`/app?embedded=1&shop&host&id_token`), and the app
 * trades that token for an offline access token at the store's token exchange. The install counts
 * only when both happened.
 */

export const DEFAULT_INSTALL_TIMEOUT_MS = 30_000;
const ADMIN_BROWSER_USER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 (svc local store)";

export type InstallOutcome =
  { status: "installed" } | { status: "failed"; message: string; appStatus: number | null };

export async function installApp(input: {
  shop: StoreShop;
  state: StoreActions;
  grants: AccessGrants;
  appConfig: AppConfig;
  now: () => Date;
  timeoutMs?: number;
}): Promise<InstallOutcome> {
  const { shop, state, grants } = input;
  recordGrant(state, shop, input.appConfig.scopes);
  const exchangesBefore = grants.offlineExchanges(shop.domain);

  const { token } = mintSessionToken({
    shop: shop.domain,
    apiKey: shop.app.apiKey,
    apiSecret: shop.app.apiSecret,
    userId: SHOP_OWNER_USER_ID,
    now: input.now(),
  });
  const appPage = new URL(`${shop.app.url.replace(/\/+$/, "")}/app`);
  appPage.searchParams.set("embedded", "1");
  appPage.searchParams.set("shop", shop.domain);
  appPage.searchParams.set("host", adminHostParameter(shop.domain));
  appPage.searchParams.set("id_token", token);
  const pageName = `GET ${appPage.origin}${appPage.pathname}?embedded=1&shop=${shop.domain}&host=…&id_token=…`;

  let appStatus: number;
  try {
    const response = await fetch(appPage, {
      redirect: "manual",
      // The merchant's browser loads the app's iframe; the Shopify libraries answer bots 410.
      headers: { "User-Agent": ADMIN_BROWSER_USER_AGENT },
      signal: AbortSignal.timeout(input.timeoutMs ?? DEFAULT_INSTALL_TIMEOUT_MS),
    });
    appStatus = response.status;
    await response.arrayBuffer().catch(() => undefined);
  } catch (error) {
    const reason =
      error instanceof Error && error.name === "TimeoutError"
        ? `no answer within ${input.timeoutMs ?? DEFAULT_INSTALL_TIMEOUT_MS} ms`
        : error instanceof Error
          ? error.cause instanceof Error
            ? error.cause.message
            : error.message
          : String(error);
    return {
      status: "failed",
      message: `Failed to install the app on ${shop.domain}: ${pageName} failed (${reason})`,
      appStatus: null,
    };
  }
  if (appStatus !== 200)
    return {
      status: "failed",
      message: `Failed to install the app on ${shop.domain}: the app answered ${appStatus} to ${pageName}`,
      appStatus,
    };
  if (grants.offlineExchanges(shop.domain) === exchangesBefore)
    return {
      status: "failed",
      message:
        `Failed to install the app on ${shop.domain}: the app loaded (200) but never exchanged its ` +
        `session token for an offline access token. It may still hold a session for this shop ` +
        `from an earlier store run: POST /__store/shops/${shop.domain}/uninstall (which tells the ` +
        `app with app/uninstalled), then install again`,
      appStatus,
    };
  return { status: "installed" };
}
