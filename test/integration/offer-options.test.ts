import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import type * as PlansRoute from "../../app/routes/proxy.plans";
import type * as SettingsRoute from "../../app/routes/app.settings/route";
import { appProxyRequest, MACBOOK_AIR_QUERY, plansQuery } from "../support/app-proxy";
import { testDatabaseProvider } from "../support/databases";
import { createStoreProduct, installInStore } from "../support/local-store";
import { withOutboxApp } from "../support/outbox-app";
import { connectShop } from "../support/shops";
import { adminRequest, callRoute } from "../support/routes";

// The offer options saved on the admin's Settings page reach the storefront with the plans:
// GET /apps/svc/plans through the real, signed proxy route, the emulator as the service.

const provider = testDatabaseProvider();
const SHOP = "offer-options.myshopify.com";
const OTHER_SHOP = "offer-options-other.myshopify.com";
const SESSION = "3f9a6c1e-8b2d-4e7a-9c5f-1d2e3b4a5c6d";

const app = withOutboxApp();

let routes: { plans: typeof PlansRoute; settings: typeof SettingsRoute };
/** The variants of the shop's MacBook in the local store, which the app checks (decision 016). */
let macbookVariants: string[] = [];

beforeAll(async () => {
  routes = {
    plans: await import("../../app/routes/proxy.plans"),
    settings: await import("../../app/routes/app.settings/route"),
  };
  await installInStore(app.prisma, SHOP);
  const macbook = await createStoreProduct(SHOP, {
    title: MACBOOK_AIR_QUERY.product_title,
    variants: ["8 GB", "16 GB", "24 GB", "32 GB", "Midnight", "Starlight"].map((title) => ({
      title,
      price: "1299.00",
    })),
  });
  macbookVariants = macbook.variants.map((variant) => variant.id);
});

beforeEach(async () => {
  await app.control.reset();
  await app.prisma.session.deleteMany({});
  await app.prisma.shopConnection.deleteMany({});
  await connectShop(app.prisma, SHOP);
  await installInStore(app.prisma, SHOP);
  await connectShop(app.prisma, OTHER_SHOP);
});

let variantCounter = 0;
/** Plan answers stay cached for the whole file: each test asks for its own variant. */
function freshVariant(): string {
  const variant = macbookVariants[variantCounter];
  variantCounter += 1;
  if (variant === undefined) throw new Error("Give the MacBook in the store more variants");
  return variant;
}

async function getPlans(variantId: string, shop = SHOP) {
  const request = appProxyRequest({
    path: "plans",
    shop,
    query: plansQuery(variantId, {
      ...MACBOOK_AIR_QUERY,
      user_session_id: SESSION,
      product_category: "electronics",
    }),
  });
  const answer = await callRoute(routes.plans.loader, request);
  if (!(answer instanceof Response)) throw new Error("A proxy route must answer a Response");
  expect(answer.status).toBe(200);
  return (await answer.json()) as Record<string, unknown> & { plans: unknown[] };
}

async function saveSettings(form: Record<string, string>) {
  const request = adminRequest(SHOP, "/app/settings", {
    form: {
      reportOrdersWithoutPlan: "true",
      autoRefundPlans: "true",
      autoEditPlans: "true",
      autoFulfilPlans: "false",
      selfServiceLink: "true",
      heading: "",
      showInsuranceLink: "true",
      layout: "list",
      ...form,
    },
  });
  const answer = await callRoute(routes.settings.action, request);
  expect(answer).toEqual({ ok: true, notice: "settings.saved" });
}

async function planLookups() {
  return (await app.control.requests()).filter((request) => request.path === "/sandbox/plans");
}

describe(`offer options in the plans answer (${provider})`, () => {
  it("answers the saved options next to the plans, leaving the plans as they were", async () => {
    const variant = freshVariant();
    const before = await getPlans(variant);
    expect(before.plans).toHaveLength(2);
    // Never saved: no options field, the storefront uses its defaults.
    expect(before).not.toHaveProperty("options");

    await saveSettings({
      heading: "Schütze dein Gerät",
      showInsuranceLink: "false",
      layout: "compact",
    });
    const after = await getPlans(variant);

    expect(after).toEqual({
      ...before,
      options: { heading: "Schütze dein Gerät", showInsuranceLink: false, layout: "compact" },
    });
    // The plans came from the cache; the options did not.
    expect(await planLookups()).toHaveLength(1);
  });

  it("answers a later change at once, and null for an empty heading", async () => {
    const variant = freshVariant();
    await saveSettings({ heading: "First" });
    expect((await getPlans(variant)).options).toEqual({
      heading: "First",
      showInsuranceLink: true,
      layout: "list",
    });
    await saveSettings({ heading: "", layout: "compact" });
    expect((await getPlans(variant)).options).toEqual({
      heading: null,
      showInsuranceLink: true,
      layout: "compact",
    });
  });

  it("answers the defaults for stored options that are no longer valid", async () => {
    await app.prisma.shopConnection.update({
      where: { shop: SHOP },
      data: { offerOptions: JSON.stringify({ layout: "grid", showInsuranceLink: false }) },
    });
    expect((await getPlans(freshVariant())).options).toEqual({
      heading: null,
      showInsuranceLink: false,
      layout: "list",
    });
  });

  it("answers each shop its own options", async () => {
    await saveSettings({ heading: "Only for this shop" });
    const variant = freshVariant();
    expect((await getPlans(variant)).options).toMatchObject({ heading: "Only for this shop" });
    expect(await getPlans(variant, OTHER_SHOP)).not.toHaveProperty("options");
  });
});
