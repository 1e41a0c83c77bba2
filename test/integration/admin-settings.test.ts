import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { SettingsActionData } from "../../app/admin/settings-form";
import type * as SettingsRoute from "../../app/routes/app.settings/route";
import type { ShopSettings } from "../../app/models/ShopSettings.server";
import { testDatabaseProvider } from "../support/databases";
import { withOutboxApp } from "../support/outbox-app";
import { sessionToken } from "../support/session-token";
import { adminRequest, callRoute, routeData } from "../support/routes";
import { readShopifyFixture } from "../support/webhooks";
import { seedShop } from "../support/shops";

// The admin's Settings page through its real loader and action with App Bridge session tokens;
// the order-reporting choice is then followed by the real order webhook route.

const provider = testDatabaseProvider();
const SHOP = "admin-settings.myshopify.com";
const OTHER_SHOP = "admin-settings-other.myshopify.com";
const SETTINGS_PAGE = "/app/settings";
// A real order with no protection plan line.
const ORDER_WITHOUT_PLAN = ["orders_create", "real-eur-qty2_qrshirt_app.json"] as const;

const app = withOutboxApp();
let route: typeof SettingsRoute;

beforeAll(async () => {
  route = await import("../../app/routes/app.settings/route");
});

beforeEach(async () => {
  await app.prisma.session.deleteMany({});
  await app.prisma.outboxEvent.deleteMany({});
  await app.prisma.webhookReceipt.deleteMany({});
  await app.prisma.shopConnection.deleteMany({});
  for (const shop of [SHOP, OTHER_SHOP]) {
    await seedShop(app.prisma, shop);
  }
});

async function load(shop = SHOP): Promise<ShopSettings> {
  return routeData(await callRoute(route.loader, adminRequest(shop, SETTINGS_PAGE))).settings;
}

async function save(form: Record<string, string>, shop = SHOP): Promise<SettingsActionData> {
  return routeData(await callRoute(route.action, adminRequest(shop, SETTINGS_PAGE, { form })));
}

const FORM = {
  reportOrdersWithoutPlan: "false",
  autoRefundPlans: "false",
  autoEditPlans: "false",
  autoFulfilPlans: "false",
  selfServiceLink: "false",
  heading: "  Schütze dein Gerät  ",
  showInsuranceLink: "false",
  layout: "compact",
};

function record(shop = SHOP) {
  return app.prisma.shopConnection.findUniqueOrThrow({ where: { shop } });
}

async function orderEventsAfterAnOrderWithoutPlan() {
  const answer = await app.webhooks.sendOrderWebhook({
    topic: "orders/create",
    shop: SHOP,
    body: readShopifyFixture(...ORDER_WITHOUT_PLAN),
  });
  expect(answer.status).toBe(200);
  return app.prisma.outboxEvent.count({ where: { shop: SHOP } });
}

describe(`admin settings page (${provider})`, () => {
  it("shows the defaults for a shop that never saved settings", async () => {
    expect(await load()).toEqual({
      reportOrdersWithoutPlan: true,
      autoRefundPlans: true,
      autoEditPlans: true,
      autoFulfilPlans: false,
      selfServiceLink: true,
      offerOptions: { heading: null, showInsuranceLink: true, layout: "list" },
    });
  });

  it("saves every setting and reads them back", async () => {
    expect(await save(FORM)).toEqual({ ok: true, notice: "settings.saved" });
    const expected = {
      reportOrdersWithoutPlan: false,
      autoRefundPlans: false,
      autoEditPlans: false,
      autoFulfilPlans: false,
      selfServiceLink: false,
      offerOptions: { heading: "Schütze dein Gerät", showInsuranceLink: false, layout: "compact" },
    };
    expect(await load()).toEqual(expected);
    const row = await record();
    expect(row.reportOrdersWithoutPlan).toBe(false);
    expect(row.autoRefundPlans).toBe(false);
    expect(row.autoEditPlans).toBe(false);
    expect(JSON.parse(row.offerOptions ?? "null")).toEqual(expected.offerOptions);
    expect(row.selfServiceLink).toBe(false);

    await save({ ...FORM, reportOrdersWithoutPlan: "true", heading: "", layout: "list" });
    expect(await load()).toMatchObject({
      reportOrdersWithoutPlan: true,
      autoRefundPlans: false,
      offerOptions: { heading: null, layout: "list" },
    });
  });

  it("reporting orders without a plan follows the saved choice", async () => {
    expect(await orderEventsAfterAnOrderWithoutPlan()).toBe(1);
    await app.prisma.outboxEvent.deleteMany({});
    await app.prisma.webhookReceipt.deleteMany({});

    await save(FORM);
    expect(await orderEventsAfterAnOrderWithoutPlan()).toBe(0);
  });

  it.each([
    [{ heading: "x".repeat(81) }, { heading: "settings.offer.errors.headingTooLong" }],
    [{ heading: "Line one\nline two" }, { heading: "settings.offer.errors.headingInvalid" }],
    [{ layout: "grid" }, { layout: "settings.offer.errors.layout" }],
    [{ autoRefundPlans: "on" }, { form: "settings.errors.invalidForm" }],
    [{ autoEditPlans: undefined }, { form: "settings.errors.invalidForm" }],
    [{ showInsuranceLink: undefined }, { form: "settings.errors.invalidForm" }],
  ])("refuses %j with an inline error and changes nothing", async (change, errors) => {
    await save(FORM);
    const before = await record();
    const form = Object.fromEntries(
      Object.entries({ ...FORM, ...change }).filter(([, value]) => value !== undefined),
    ) as Record<string, string>;
    expect(await save({ ...form, reportOrdersWithoutPlan: "true" })).toEqual({ ok: false, errors });
    expect(await record()).toEqual(before);
  });

  it("never lets a session of one shop read or change another shop's settings", async () => {
    await save({ ...FORM, heading: "Other shop's heading" }, OTHER_SHOP);
    const otherBefore = await record(OTHER_SHOP);

    expect((await load(SHOP)).offerOptions.heading).toBeNull();
    const forged = await callRoute(
      route.action,
      adminRequest(OTHER_SHOP, SETTINGS_PAGE, {
        form: { ...FORM, heading: "Changed", shop: OTHER_SHOP },
        token: sessionToken(SHOP),
      }),
    );
    const read = await callRoute(
      route.loader,
      adminRequest(OTHER_SHOP, SETTINGS_PAGE, { token: sessionToken(SHOP) }),
    );

    expect(await record(OTHER_SHOP)).toEqual(otherBefore);
    if (!(read instanceof Response)) expect(JSON.stringify(read)).not.toContain("Other shop");
    if (!(forged instanceof Response))
      expect((await load(SHOP)).offerOptions.heading).toBe("Changed");
  });

  it("refuses a request without a valid session token", async () => {
    const forged = sessionToken(SHOP, { secret: "forged" });
    const answer = await callRoute(
      route.action,
      adminRequest(SHOP, SETTINGS_PAGE, { form: FORM, token: forged }),
    );
    expect(answer).toBeInstanceOf(Response);
    expect((answer as Response).status).toBe(401);
    expect((await record()).offerOptions).toBeNull();
  });
});
