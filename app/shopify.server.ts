import "@shopify/shopify-app-remix/adapters/node";
import { shopifyApi } from "@shopify/shopify-api";
import { setAbstractFetchFunc } from "@shopify/shopify-api/runtime";
import {
  ApiVersion,
  AppDistribution,
  LogSeverity,
  shopifyApp,
} from "@shopify/shopify-app-remix/server";
import { getSecretBox } from "./crypto/secrets.server";
import prisma from "./db.server";
import { getEnv } from "./env.server";
import { withLocalAdminHeaders } from "./lib/local-admin";
import { localStoreFetch } from "./lib/local-store-fetch";
import { logger } from "./logger.server";
import { recordInstallation } from "./models/ShopConnection.server";
import { SealedSessionStorage } from "./models/session-storage.server";

const env = getEnv();

// Development and tests: Shopify's admin calls go to the local store (decision 021). This must
// come after the node adapter's import, which installs the default fetch.
if (env.SHOPIFY_ADMIN_ORIGIN) {
  setAbstractFetchFunc(localStoreFetch(env.SHOPIFY_ADMIN_ORIGIN));
  logger.warn(
    { shopifyAdminOrigin: env.SHOPIFY_ADMIN_ORIGIN },
    `Shopify admin calls go to the local store at ${env.SHOPIFY_ADMIN_ORIGIN}, not to Shopify`,
  );
}

// The library's own lines go through our structured logger. Its Info level writes a line per
// app proxy request (every product page view), so only warnings and errors are kept.
const libraryLogger = {
  level: LogSeverity.Warning,
  log: (severity: LogSeverity, message: string) => {
    const fields = { source: "shopify-app-remix" };
    if (severity === LogSeverity.Error) logger.error(fields, message);
    else if (severity === LogSeverity.Warning) logger.warn(fields, message);
    else logger.info(fields, message);
  },
};

// Webhooks are declared in shopify.app.toml (app-specific subscriptions), never in afterAuth.
const shopify = shopifyApp({
  apiKey: env.SHOPIFY_API_KEY,
  apiSecretKey: env.SHOPIFY_API_SECRET,
  apiVersion: ApiVersion.October26,
  scopes: env.SCOPES.split(",").map((scope) => scope.trim()),
  appUrl: env.SHOPIFY_APP_URL,
  authPathPrefix: "/auth",
  // Shopify's Prisma storage with the tokens sealed at rest (decision 044).
  sessionStorage: new SealedSessionStorage(prisma, getSecretBox()),
  distribution: AppDistribution.AppStore,
  logger: libraryLogger,
  future: {
    unstable_newEmbeddedAuthStrategy: true,
    // Offline tokens that expire after an hour, with a refresh token (decision 023): required of
    // public apps from 2027-01-01.
    expiringOfflineAccessTokens: true,
  },
  hooks: {
    afterAuth: async ({ session }) => {
      await recordInstallation(prisma, session.shop, session.scope ?? null);
    },
  },
  ...(env.SHOP_CUSTOM_DOMAIN ? { customShopDomains: [env.SHOP_CUSTOM_DOMAIN] } : {}),
});

export default shopify;

/**
 * The token endpoint calls the background work makes itself (decision 023): refreshing an
 * offline token and migrating a non-expiring one. `unauthenticated.admin` refreshes too, but
 * answers every failure with the same 500, and the worker must tell a refused refresh token (the
 * merchant has to open the app again) from a passing failure.
 */
export const offlineTokenApi = shopifyApi({
  apiKey: env.SHOPIFY_API_KEY,
  apiSecretKey: env.SHOPIFY_API_SECRET,
  apiVersion: ApiVersion.October26,
  scopes: env.SCOPES.split(",").map((scope) => scope.trim()),
  hostName: new URL(env.SHOPIFY_APP_URL).host,
  hostScheme: new URL(env.SHOPIFY_APP_URL).protocol === "http:" ? "http" : "https",
  isEmbeddedApp: true,
  logger: libraryLogger,
  ...(env.SHOP_CUSTOM_DOMAIN ? { customShopDomains: [env.SHOP_CUSTOM_DOMAIN] } : {}),
});
export const apiVersion = ApiVersion.October26;
/** Shopify's document headers; against a local store, its admin may frame the page (decision 030). */
export const addDocumentResponseHeaders = (request: Request, headers: Headers) => {
  shopify.addDocumentResponseHeaders(request, headers);
  if (env.SHOPIFY_ADMIN_ORIGIN) withLocalAdminHeaders(headers, env.SHOPIFY_ADMIN_ORIGIN);
};
export const authenticate = shopify.authenticate;
export const unauthenticated = shopify.unauthenticated;
export const login = shopify.login;
export const registerWebhooks = shopify.registerWebhooks;
export const sessionStorage = shopify.sessionStorage;
