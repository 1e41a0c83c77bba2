import type { FastifyInstance } from "fastify";
import type { AppProxyConfig } from "../server/app-config";
import { registerAppProxy } from "./app-proxy";
import { registerCartRoutes, type CartRoutesDeps } from "./cart-routes";
import { registerCheckoutRoutes } from "./checkout";

/*
 * The storefront's commerce at the origin's root: the Ajax Cart API (cart-routes.ts), the
 * checkout stand-in (checkout.ts) and the app proxy (app-proxy.ts), registered together.
 */

/** The cart routes' needs (renderSections is the theme's Section Rendering API), and more. */
export interface StorefrontCommerceDeps extends CartRoutesDeps {
  /** shopify.app.toml's [app_proxy]; without it there is no /apps/... route. */
  appProxy?: AppProxyConfig;
  now?: () => Date;
  appProxyTimeoutMs?: number;
}

export function registerStorefrontCommerce(
  app: FastifyInstance,
  deps: StorefrontCommerceDeps,
): void {
  registerCartRoutes(app, deps);
  registerCheckoutRoutes(app, deps);
  if (deps.appProxy) {
    registerAppProxy(app, {
      storefrontShop: deps.storefrontShop,
      config: deps.appProxy,
      ...(deps.now ? { now: deps.now } : {}),
      ...(deps.appProxyTimeoutMs === undefined ? {} : { timeoutMs: deps.appProxyTimeoutMs }),
    });
  }
}
