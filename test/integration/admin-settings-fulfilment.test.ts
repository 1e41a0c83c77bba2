import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import type * as SettingsRoute from "../../app/routes/app.settings/route";
import { testDatabaseProvider } from "../support/databases";
import { installInStore, storeControl } from "../support/local-store";
import { withOutboxApp } from "../support/outbox-app";
import { APP_SCOPES } from "../support/offline-session";
import { adminRequest, callRoute, routeData } from "../support/routes";
import { connectShop } from "../support/shops";

// The Settings page's "fulfil plans with their products" (decision 025) through its real loader
// and action, against the local store: turning it on saves it and asks Shopify for the optional
// fulfilment scope with shopify-app-remix's scopes API; while the scope is missing, the page
// says so. The store cannot show Shopify's grant screen: the test follows the redirect's URL as
// far as it names the scope, and grants it through the store's control API instead.

const provider = testDatabaseProvider();
const SHOP = `settings-fulfil-${provider}.myshopify.com`;
const SETTINGS_PAGE = "/app/settings";
const SCOPE = "write_merchant_managed_fulfillment_orders";
const FORM = {
  reportOrdersWithoutPlan: "true",
  autoRefundPlans: "true",
  autoEditPlans: "true",
  autoFulfilPlans: "true",
  selfServiceLink: "true",
  heading: "",
  showInsuranceLink: "true",
  layout: "list",
};

const app = withOutboxApp();
let route: typeof SettingsRoute;

beforeAll(async () => {
  route = await import("../../app/routes/app.settings/route");
});

beforeEach(async () => {
  await app.prisma.shopConnection.deleteMany({ where: { shop: SHOP } });
  await installInStore(app.prisma, SHOP, { scopes: APP_SCOPES });
  await connectShop(app.prisma, SHOP);
});

async function load() {
  return routeData(await callRoute(route.loader, adminRequest(SHOP, SETTINGS_PAGE)));
}

function save(form: Record<string, string>) {
  return callRoute(route.action, adminRequest(SHOP, SETTINGS_PAGE, { form }));
}

/** The grant screen an answer sends App Bridge to, from its reauthorize header. */
function grantScreenOf(answer: unknown): URL {
  expect(answer).toBeInstanceOf(Response);
  const response = answer as Response;
  expect(response.status).toBe(401);
  const url = response.headers.get("X-Shopify-API-Request-Failure-Reauthorize-Url");
  expect(url).not.toBeNull();
  return new URL(url!);
}

describe(`settings: fulfil plans with their products (${provider})`, () => {
  it("is off by default, and asks for nothing while off", async () => {
    expect(await load()).toMatchObject({
      settings: { autoFulfilPlans: false },
      fulfilmentScopeMissing: false,
    });
    expect(await save({ ...FORM, autoFulfilPlans: "false" })).toEqual({
      ok: true,
      notice: "settings.saved",
    });
  });

  it("turned on, saves and sends the merchant to Shopify's grant screen for the scope", async () => {
    const answer = await save(FORM);
    const grant = grantScreenOf(answer);
    expect(`${grant.host}${grant.pathname}`).toBe(`${SHOP}/admin/oauth/install`);
    expect(grant.searchParams.get("optional_scopes")).toBe(SCOPE);
    const row = await app.prisma.shopConnection.findUniqueOrThrow({ where: { shop: SHOP } });
    expect(row.autoFulfilPlans).toBe(true);

    // Back on the page without the grant: the banner asks again, and its button does too.
    expect(await load()).toMatchObject({
      settings: { autoFulfilPlans: true },
      fulfilmentScopeMissing: true,
    });
    const again = await save({ intent: "grant_fulfilment_scope" });
    expect(grantScreenOf(again).searchParams.get("optional_scopes")).toBe(SCOPE);
  });

  it("asks nothing once Shopify has granted the scope", async () => {
    expect(
      (await storeControl(`shops/${SHOP}/scopes`, { scopes: [...APP_SCOPES.split(","), SCOPE] }))
        .status,
    ).toBe(200);
    expect(await save(FORM)).toEqual({ ok: true, notice: "settings.saved" });
    expect(await load()).toMatchObject({
      settings: { autoFulfilPlans: true },
      fulfilmentScopeMissing: false,
    });
    expect(await save({ intent: "grant_fulfilment_scope" })).toEqual({
      ok: true,
      notice: "settings.fulfilmentScope.granted",
    });
  });
});
