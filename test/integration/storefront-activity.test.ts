import { randomUUID } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import { forgetStorefrontActivity } from "../../app/models/StorefrontActivity.server";
import { appProxyRequest, plansQuery } from "../support/app-proxy";
import { withOutboxApp } from "../support/outbox-app";
import { connectShop } from "../support/shops";
import { callRoute } from "../support/routes";

// The app proxy tells the admin what the storefront does: the embed runs, the offer block runs,
// and which variants were offered plans (the onboarding checklist and the attach rate read it).

const SHOP = "activity-store.myshopify.com";
const app = withOutboxApp();

beforeEach(async () => {
  forgetStorefrontActivity();
  await app.prisma.shopConnection.deleteMany({});
  await app.prisma.protectableVariant.deleteMany({});
  await connectShop(app.prisma, SHOP);
});

async function lookUpPlans(variantId: string, title: string) {
  const { loader } = await import("../../app/routes/proxy.plans");
  const answer = await callRoute(
    loader,
    appProxyRequest({
      path: "plans",
      shop: SHOP,
      query: plansQuery(variantId, { product_title: title }),
    }),
  );
  expect((answer as Response).status).toBe(200);
  return (await (answer as Response).json()) as { plans: unknown[] };
}

async function connection() {
  return app.prisma.shopConnection.findUniqueOrThrow({ where: { shop: SHOP } });
}

describe("storefront activity seen through the app proxy", () => {
  it("notes the offer block, and the variants that were offered plans", async () => {
    expect((await connection()).offerBlockSeenAt).toBeNull();

    expect((await lookUpPlans("7982301839417", "Aurora 14 Laptop")).plans.length).toBeGreaterThan(
      0,
    );
    expect((await lookUpPlans("5550001", "Garden hose")).plans).toEqual([]);

    await expect.poll(async () => (await connection()).offerBlockSeenAt).not.toBeNull();
    await expect
      .poll(() => app.prisma.protectableVariant.findMany({ where: { shop: SHOP } }))
      .toEqual([expect.objectContaining({ variantId: "7982301839417" })]);
  });

  it("notes the cart rules embed when it reports a cart", async () => {
    const { action } = await import("../../app/routes/proxy.cart_updates");
    const cart = { token: "c1", currency: "EUR", items: [] };
    const answer = await callRoute(
      action,
      appProxyRequest({
        path: "cart_updates",
        shop: SHOP,
        body: JSON.stringify({ user_session_id: randomUUID(), cart }),
      }),
    );
    expect((answer as Response).status).toBe(200);
    await expect.poll(async () => (await connection()).embedSeenAt).not.toBeNull();
  });
});
