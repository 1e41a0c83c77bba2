import type { FastifyInstance } from "fastify";
import type { StoreShop } from "../model";
import type { AppProxyConfig } from "../server/app-config";
import type { StoreState } from "../state";
import { registerAppProxy } from "./app-proxy";
import type { StoreCarts } from "./cart";
import { registerCartRoutes } from "./cart-routes";
import { registerCheckoutRoutes } from "./checkout";
import type { RenderSections, StorefrontRequest } from "./contract";

/*
 * The storefront's commerce at the origin's root: the Ajax Cart API (cart-routes.ts), the
 * checkout stand-in (checkout.ts) and the app proxy (app-proxy.ts), registered together.
 */

export interface StorefrontCommerceDeps {
  state: StoreState;
  storefrontShop: () => StoreShop | undefined;
  carts: StoreCarts;
  /** The theme's Section Rendering API (store/storefront/theme). */
  renderSections: RenderSections;
  app: () => StorefrontRequest["app"];
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
