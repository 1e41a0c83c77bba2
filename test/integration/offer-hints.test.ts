import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { forgetStorefrontActivity } from "../../app/models/StorefrontActivity.server";
import { forgetVariantChecks } from "../../app/storefront/variant-check.server";
import {
  adminGraphqlCalls,
  adminGraphqlFixture,
  answerVariantOwners,
  expectAdminGraphql,
  resetAdminGraphql,
} from "../support/admin-graphql";
import { appProxyRequest, plansQuery } from "../support/app-proxy";
import { withOutboxApp } from "../support/outbox-app";
import { seedShop } from "../support/shops";
import { callRoute } from "../support/routes";

// The offer block's layout hint (decision 014) through the real plans route: the storefront asks
// for plans, the app records which variants of the product have none and writes them to the
// product's app-owned metafield with the shop's offline session. Shopify's Admin API is answered
// from recorded JSON; the service is the emulator.

const SHOP = "hint-store.myshopify.com";
const OFFLINE_TOKEN = "shpat_hint_offline";
const LAPTOP_PRODUCT = "8012345678901";
const HOSE_PRODUCT = "8012345678902";
const app = withOutboxApp();

type Lookup = { variantId: string; productId?: string; title: string; price?: string };

function lookupQuery({ variantId, productId, title, price }: Lookup): Record<string, string> {
  return plansQuery(variantId, {
    ...(productId === undefined ? {} : { product_id: productId }),
    ...(price === undefined ? {} : { price }),
    product_title: title,
  });
}

async function lookUpPlans(lookup: Lookup) {
  const { loader } = await import("../../app/routes/proxy.plans");
  const answer = (await callRoute(
    loader,
    appProxyRequest({ path: "plans", shop: SHOP, query: lookupQuery(lookup) }),
  )) as Response;
  return { status: answer.status, body: (await answer.json()) as { plans?: unknown[] } };
}

const laptop = (variantId: string, price?: string): Lookup => ({
  variantId,
  productId: LAPTOP_PRODUCT,
  title: "Aurora 14 Laptop",
  ...(price === undefined ? {} : { price }),
});
const hose = (variantId: string): Lookup => ({
  variantId,
  productId: HOSE_PRODUCT,
  title: "Garden hose",
});

/** The product's hint: its variants without plans, what Shopify holds, and the last refusal. */
async function hintRow(productId: string) {
  const [variants, publish] = await Promise.all([
    app.prisma.productOfferHint.findMany({
      where: { shop: SHOP, productId, withoutPlans: true },
      select: { variantId: true },
    }),
    app.prisma.productOfferHintPublish.findUnique({
      where: { shop_productId: { shop: SHOP, productId } },
      select: { published: true, lastError: true },
    }),
  ]);
  if (variants.length === 0 && !publish) return null;
  return {
    withoutPlans: JSON.stringify(variants.map((variant) => variant.variantId).sort()),
    published: publish?.published ?? null,
    lastError: publish?.lastError ?? null,
  };
}

const variantRows = () =>
  app.prisma.productOfferHint.findMany({
    where: { shop: SHOP },
    select: { productId: true, variantId: true, withoutPlans: true },
    orderBy: [{ productId: "asc" }, { variantId: "asc" }],
  });

const setCalls = () =>
  adminGraphqlCalls().filter((call) => call.operationName === "SetPlanAvailability");

const published = (ids: string[]) => ({
  withoutPlans: JSON.stringify(ids),
  published: JSON.stringify(ids),
  lastError: null,
});

/** Shopify's answer to the app's check that a variant is the shop's (decision 016). */
function productOfVariant(variantId: string): string | undefined {
  if (variantId.startsWith("555")) return HOSE_PRODUCT;
  if (variantId.startsWith("798230183941")) return LAPTOP_PRODUCT;
  return undefined;
}

answerVariantOwners(productOfVariant);

beforeEach(async () => {
  forgetStorefrontActivity();
  forgetVariantChecks();
  resetAdminGraphql();
  await app.prisma.shopConnection.deleteMany({});
  await app.prisma.productOfferHint.deleteMany({});
  await app.prisma.productOfferHintPublish.deleteMany({});
  await app.prisma.session.deleteMany({});
  await seedShop(app.prisma, SHOP, { accessToken: OFFLINE_TOKEN });
});

afterEach(() => {
  // Every queued answer was asked for, and nothing else was.
  expect(resetAdminGraphql()).toEqual({ unused: [], unexpected: [] });
});

describe("the offer block's layout hint", () => {
  it("writes a product's variants without plans to its app-owned metafield, once", async () => {
    expectAdminGraphql(
      "SetPlanAvailability",
      adminGraphqlFixture("metafields-set-plan-availability.json"),
    );
    expect((await lookUpPlans(hose("5550001"))).body.plans).toEqual([]);

    await expect.poll(() => hintRow(HOSE_PRODUCT)).toEqual(published(["5550001"]));
    expect(setCalls()).toHaveLength(1);
    expect(setCalls()[0]).toMatchObject({
      shop: SHOP,
      accessToken: OFFLINE_TOKEN,
      variables: {
        metafields: [
          {
            ownerId: `gid://shopify/Product/${HOSE_PRODUCT}`,
            namespace: "$app",
            key: "plan_availability",
            type: "json",
            value: '{"without_plans":["5550001"]}',
          },
        ],
      },
    });

    // The same answer again, past the note interval: Shopify already holds it, nothing is sent.
    forgetStorefrontActivity();
    await lookUpPlans(hose("5550001"));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(setCalls()).toHaveLength(1);
  });

  it("keeps no hint for a product whose variants have plans", async () => {
    expect((await lookUpPlans(laptop("7982301839417"))).body.plans?.length).toBeGreaterThan(0);
    // The answer is recorded for the variant; the product has nothing to publish.
    await expect
      .poll(variantRows)
      .toEqual([{ productId: LAPTOP_PRODUCT, variantId: "7982301839417", withoutPlans: false }]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await hintRow(LAPTOP_PRODUCT)).toBeNull();
    expect(setCalls()).toHaveLength(0);
  });

  it("lists only the variants without plans, and takes one out when it gains plans", async () => {
    // The laptop's 1.00 EUR variant is below every price band: no plans.
    expectAdminGraphql(
      "SetPlanAvailability",
      adminGraphqlFixture("metafields-set-plan-availability.json"),
    );
    expect((await lookUpPlans(laptop("7982301839418", "100"))).body.plans).toEqual([]);
    expect((await lookUpPlans(laptop("7982301839417"))).body.plans?.length).toBeGreaterThan(0);
    await expect.poll(() => hintRow(LAPTOP_PRODUCT)).toEqual(published(["7982301839418"]));

    // Its price changes to one the service covers: it leaves the list, and Shopify is told.
    expectAdminGraphql(
      "SetPlanAvailability",
      adminGraphqlFixture("metafields-set-plan-availability.json"),
    );
    expect((await lookUpPlans(laptop("7982301839418"))).body.plans?.length).toBeGreaterThan(0);
    await expect.poll(() => hintRow(LAPTOP_PRODUCT)).toEqual(published([]));
    expect(setCalls().map((call) => call.variables)).toEqual([
      { metafields: [expect.objectContaining({ value: '{"without_plans":["7982301839418"]}' })] },
      { metafields: [expect.objectContaining({ value: '{"without_plans":[]}' })] },
    ]);
  });

  it("records two variants of one product looked up at once", async () => {
    expectAdminGraphql(
      "SetPlanAvailability",
      adminGraphqlFixture("metafields-set-plan-availability.json"),
    );
    expectAdminGraphql(
      "SetPlanAvailability",
      adminGraphqlFixture("metafields-set-plan-availability.json"),
    );
    await Promise.all([lookUpPlans(hose("5550001")), lookUpPlans(hose("5550002"))]);
    await expect.poll(() => hintRow(HOSE_PRODUCT)).toEqual(published(["5550001", "5550002"]));
    // The last value sent is the whole list; a publish that ran meanwhile may have sent one.
    expect(setCalls().at(-1)?.variables).toEqual({
      metafields: [expect.objectContaining({ value: '{"without_plans":["5550001","5550002"]}' })],
    });
    // The queue's second answer was for a second publish; when one sufficed, it is not owed.
    resetAdminGraphql();
  });

  it("lands each variant once when ten writers note them at once, repeats included", async () => {
    const { recordVariantPlans } = await import("../../app/models/ProductOfferHint.server");
    const variants = Array.from({ length: 5 }, (_, i) => String(5550010 + i));
    // Two instances noting the same five variants at once: each write is an upsert of its own row.
    await Promise.all(
      [...variants, ...variants].map((variantId) =>
        recordVariantPlans(app.prisma, SHOP, HOSE_PRODUCT, variantId, false),
      ),
    );
    expect(await variantRows()).toEqual(
      variants.map((variantId) => ({ productId: HOSE_PRODUCT, variantId, withoutPlans: true })),
    );
  });

  it("publishes again when a variant is noted while Shopify is being asked", async () => {
    const { recordVariantPlans } = await import("../../app/models/ProductOfferHint.server");
    const { updateOfferHint } = await import("../../app/storefront/offer-hints.server");
    const { logger } = await import("../../app/logger.server");
    const sent: unknown[] = [];
    const graphql = async (_query: string, options?: { variables?: Record<string, unknown> }) => {
      sent.push(options?.variables);
      // Another instance notes a second variant of the product while the first write is in flight.
      if (sent.length === 1) {
        await recordVariantPlans(app.prisma, SHOP, HOSE_PRODUCT, "5550002", false);
      }
      return Response.json(adminGraphqlFixture("metafields-set-plan-availability.json"));
    };
    const lookup = { shop: SHOP, productId: HOSE_PRODUCT, variantId: "5550001", offered: false };
    await updateOfferHint(app.prisma, lookup, graphql, logger);

    expect(await hintRow(HOSE_PRODUCT)).toEqual(published(["5550001", "5550002"]));
    expect(sent).toEqual([
      { metafields: [expect.objectContaining({ value: '{"without_plans":["5550001"]}' })] },
      {
        metafields: [expect.objectContaining({ value: '{"without_plans":["5550001","5550002"]}' })],
      },
    ]);
  });

  it("keeps a refused write and tries again on a later view", async () => {
    expectAdminGraphql(
      "SetPlanAvailability",
      adminGraphqlFixture("metafields-set-owner-missing.json"),
    );
    await lookUpPlans(hose("5550001"));
    await expect
      .poll(() => hintRow(HOSE_PRODUCT))
      .toEqual({
        withoutPlans: '["5550001"]',
        published: null,
        lastError: "Owner does not exist.",
      });

    expectAdminGraphql(
      "SetPlanAvailability",
      adminGraphqlFixture("metafields-set-plan-availability.json"),
    );
    forgetStorefrontActivity();
    await lookUpPlans(hose("5550001"));
    await expect.poll(() => hintRow(HOSE_PRODUCT)).toEqual(published(["5550001"]));
  });

  it("keeps a write that Shopify throttled for a later view", async () => {
    expectAdminGraphql("SetPlanAvailability", adminGraphqlFixture("throttled.json"));
    await lookUpPlans(hose("5550001"));
    await expect
      .poll(() => hintRow(HOSE_PRODUCT))
      .toEqual({
        withoutPlans: '["5550001"]',
        published: null,
        lastError: expect.stringContaining("Throttled") as unknown,
      });
  });

  it("records the hint but writes nothing for a shop without an offline session", async () => {
    await app.prisma.session.deleteMany({});
    await lookUpPlans(hose("5550001"));
    await expect
      .poll(() => hintRow(HOSE_PRODUCT))
      .toEqual({ withoutPlans: '["5550001"]', published: null, lastError: null });
    expect(setCalls()).toHaveLength(0);
  });

  it("keeps no hint when the block sends no product ID (a script cached from before)", async () => {
    const { productId: _unused, ...withoutProduct } = hose("5550001");
    expect((await lookUpPlans(withoutProduct)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await app.prisma.productOfferHint.count()).toBe(0);
  });

  it("keeps no hint from a lookup the service failed", async () => {
    await app.restartEmulator(async () => {
      const { body } = await lookUpPlans(hose("5550009"));
      expect(body).toMatchObject({ plans: [], unavailable: "service_error" });
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await app.prisma.productOfferHint.count()).toBe(0);
  });

  it("refuses a product ID that is not a Shopify ID, with a clear 400", async () => {
    const answer = await lookUpPlans({ ...hose("5550001"), productId: "gid://shopify/Product/1" });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain("product_id must be a Shopify product ID");
  });
});
