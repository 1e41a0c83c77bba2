import { callRoute } from "../support/routes";
import { appProxySignature } from "../support/app-proxy";
import type { AppProxy } from "./harness";

/*
 * Shopify's app proxy in front of the real routes: /apps/svc/<path> becomes /proxy/<path> with
 * the storefront's query plus shop, logged_in_customer_id, path_prefix and timestamp, signed
 * with the app's API secret, and the route's loader or action is called in-process. Import
 * this module only after SVC_BASE_URL and DATABASE_URL are set.
 */
export async function appProxyToRoutes(shop: string): Promise<AppProxy> {
  const plans = await import("../../app/routes/proxy.plans");
  const cartUpdates = await import("../../app/routes/proxy.cart_updates");
  const routes: Record<string, typeof plans> = { plans, cart_updates: cartUpdates };

  return async (request, subpath) => {
    const route = routes[subpath];
    if (!route) return new Response("Not found", { status: 404 });
    const params = new URLSearchParams(new URL(request.url).search);
    params.delete("signature");
    params.set("shop", shop);
    params.set("logged_in_customer_id", "");
    params.set("path_prefix", "/apps/svc");
    params.set("timestamp", String(Math.floor(Date.now() / 1000)));
    params.set("signature", appProxySignature(params));
    const forwarded = new Request(`https://svc-protection.test/proxy/${subpath}?${params}`, {
      method: request.method,
      headers: { "content-type": request.headers.get("content-type") ?? "application/json" },
      ...(request.method === "GET" ? {} : { body: await request.text() }),
    });
    const handler = request.method === "GET" ? route.loader : route.action;
    const answer = await callRoute(handler, forwarded);
    if (!(answer instanceof Response))
      throw new Error(`proxy.${subpath} did not answer a Response`);
    return answer;
  };
}
