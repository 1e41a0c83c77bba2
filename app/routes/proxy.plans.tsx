import { parsePlanOfferRequest } from "../storefront/plan-request";
import { findPlanOffers } from "../storefront/plans.server";
import {
  invalidRequest,
  methodNotAllowed,
  proxyJson,
  proxyRoute,
  noteFallback,
} from "../storefront/proxy-http.server";

// GET /apps/svc/plans on the storefront, forwarded and signed by Shopify's app proxy.
export const loader = proxyRoute("proxy.plans", async ({ request, shop, log, admin }) => {
  const parsed = parsePlanOfferRequest(new URL(request.url).searchParams);
  if (!parsed.ok) return invalidRequest("plans request", parsed.issues);
  const { answer, maxAgeSeconds } = await findPlanOffers(shop, parsed.value, log, admin);
  if (answer.unavailable) noteFallback(request);
  return proxyJson(
    answer,
    maxAgeSeconds > 0 ? { headers: { "Cache-Control": `public, max-age=${maxAgeSeconds}` } } : {},
  );
});

export const action = methodNotAllowed("GET");
