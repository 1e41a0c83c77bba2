import type { FastifyInstance } from "fastify";
import type { AppProxyConfig } from "../server/app-config";
import { registerAppProxy } from "./app-proxy";
import { registerCartRoutes, type CartRoutesDeps } from "./cart-routes";
import { registerCheckoutRoutes } from "./checkout";
import { registerCheckoutBlocks } from "./extensions/blocks";

/*
 * The storefront's commerce at the origin's root: the Ajax Cart API (cart-routes.ts), the
 * checkout stand-in (checkout.ts) with the app's blocks on its Thank-you page (extensions/) and
 * the app proxy (app-proxy.ts), registered together.
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
  const thankYouBlocks = registerCheckoutBlocks(app, {
    state: deps.state,
    storefrontShop: deps.storefrontShop,
    now: deps.now ?? (() => new Date()),
  });
  registerCheckoutRoutes(app, { ...deps, thankYouBlocks });
  if (deps.appProxy) {
    registerAppProxy(app, {
      storefrontShop: deps.storefrontShop,
      config: deps.appProxy,
      ...(deps.now ? { now: deps.now } : {}),
      ...(deps.appProxyTimeoutMs === undefined ? {} : { timeoutMs: deps.appProxyTimeoutMs }),
    });
  }
}
