import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { forgetStorefrontActivity } from "../../app/models/StorefrontActivity.server";
import type { AdminGraphql } from "../../app/services/admin-api.server";
import { forgetVariantChecks } from "../../app/storefront/variant-check.server";
import type { StoreShop } from "../../store/model";
import {
  adminGraphqlCalls,
  adminGraphqlFixture,
  expectAdminGraphql,
  resetAdminGraphql,
} from "../support/admin-graphql";
import { appProxyRequest, plansQuery } from "../support/app-proxy";
import {
  appNamespace,
  createStoreProduct,
  freezeStoreClock,
  gidOf,
  installInStore,
  localStore,
  releaseStoreClock,
  resetLocalStore,
  storeControl,
  storeGraphqlLog,
  type StoreProduct,
} from "../support/local-store";
import { withOutboxApp } from "../support/outbox-app";
import { connectShop } from "../support/shops";
import { callRoute } from "../support/routes";

// The offer block's layout hint (decision 014) through the real plans route: the storefront asks
// for plans, the app checks the variant with Shopify, records which variants of the product have
// none and writes them to the product's app-owned metafield with the shop's offline session.
// Shopify is the local store, whose product then holds the metafield; the service is the
// emulator.

const SHOP = "hint-store.myshopify.com";
const app = withOutboxApp();

/** The shop in the store, its offline token, and its products, made again before each test. */
let shop: StoreShop;
let offlineToken = "";
let laptop: StoreProduct;
let hose: StoreProduct;

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

/** A variant of the laptop, which the emulator's catalogue has plans for at the default price. */
const laptopVariant = (index: number, price?: string): Lookup => ({
  variantId: laptop.variants[index]!.id,
  productId: laptop.id,
  title: "Aurora 14 Laptop",
  ...(price === undefined ? {} : { price }),
});
/** A variant of the garden hose, which has no plans. */
const hoseVariant = (index: number): Lookup => ({
  variantId: hose.variants[index]!.id,
  productId: hose.id,
  title: "Garden hose",
});
const hoseVariantId = (index: number) => hose.variants[index]!.id;

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

/** The layout hint as Shopify holds it on the product: the app's metafields there. */
function hintInStore(productId: string) {
  return (
    localStore()
      .state.product(SHOP, productId)
      ?.metafields.filter((metafield) => metafield.namespace.startsWith("app--"))
      .map(({ namespace, key, type, value }) => ({ namespace, key, type, value })) ?? []
  );
}

/** The metafield the app owns, as the store keeps it, holding `withoutPlans`. */
const storedHint = (withoutPlans: string[]) => [
  {
    namespace: appNamespace(shop),
    key: "plan_availability",
    type: "json",
    value: JSON.stringify({ without_plans: withoutPlans }),
  },
];

/** The app's Admin API client for the shop, from its offline session, as background work uses. */
async function offlineGraphql(): Promise<AdminGraphql> {
  const { unauthenticated } = await import("../../app/shopify.server");
  const { admin } = await unauthenticated.admin(SHOP);
  return (query, options) => admin.graphql(query, options);
}

beforeEach(async () => {
  forgetStorefrontActivity();
  forgetVariantChecks();
  resetAdminGraphql();
  await resetLocalStore();
  await app.prisma.shopConnection.deleteMany({});
  await app.prisma.productOfferHint.deleteMany({});
  await app.prisma.productOfferHintPublish.deleteMany({});
  await app.prisma.session.deleteMany({});
  ({ shop, accessToken: offlineToken } = await installInStore(app.prisma, SHOP));
  await connectShop(app.prisma, SHOP);
  laptop = await createStoreProduct(SHOP, {
    title: "Aurora 14 Laptop",
    variants: [
      { title: "16 GB", price: "199.00" },
      { title: "8 GB, refurbished", price: "1.00" },
    ],
  });
  hose = await createStoreProduct(SHOP, {
    title: "Garden hose",
    variants: ["15 m", "25 m", "50 m"].map((title) => ({ title, price: "19.00" })),
  });
});

afterEach(() => {
  releaseStoreClock();
  // Every queued answer was asked for, and nothing else was.
  expect(resetAdminGraphql()).toEqual({ unused: [], unexpected: [] });
});

describe("the offer block's layout hint", () => {
  it("writes a product's variants without plans to its app-owned metafield, once", async () => {
    expect((await lookUpPlans(hoseVariant(0))).body.plans).toEqual([]);

    await expect.poll(() => hintRow(hose.id)).toEqual(published([hoseVariantId(0)]));
    expect(setCalls()).toHaveLength(1);
    expect(setCalls()[0]).toMatchObject({
      shop: SHOP,
      accessToken: offlineToken,
      answeredBy: "store",
      variables: {
        metafields: [
          {
            ownerId: gidOf("Product", hose.id),
            namespace: "$app",
            key: "plan_availability",
            type: "json",
            value: `{"without_plans":["${hoseVariantId(0)}"]}`,
          },
        ],
      },
    });
    // Shopify holds it on the product, in the app's own namespace.
    expect(hintInStore(hose.id)).toEqual(storedHint([hoseVariantId(0)]));

    // The same answer again, past the note interval: Shopify already holds it, nothing is sent.
    forgetStorefrontActivity();
    await lookUpPlans(hoseVariant(0));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(setCalls()).toHaveLength(1);
  });

  it("keeps no hint for a product whose variants have plans", async () => {
    expect((await lookUpPlans(laptopVariant(0))).body.plans?.length).toBeGreaterThan(0);
    // The answer is recorded for the variant; the product has nothing to publish.
    await expect
      .poll(variantRows)
      .toEqual([{ productId: laptop.id, variantId: laptop.variants[0]!.id, withoutPlans: false }]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await hintRow(laptop.id)).toBeNull();
    expect(setCalls()).toHaveLength(0);
    expect(hintInStore(laptop.id)).toEqual([]);
  });

  it("lists only the variants without plans, and takes one out when it gains plans", async () => {
    const cheap = laptop.variants[1]!.id;
    // The laptop's 1.00 EUR variant is below every price band: no plans.
    expect((await lookUpPlans(laptopVariant(1, "100"))).body.plans).toEqual([]);
    expect((await lookUpPlans(laptopVariant(0))).body.plans?.length).toBeGreaterThan(0);
    await expect.poll(() => hintRow(laptop.id)).toEqual(published([cheap]));
    expect(hintInStore(laptop.id)).toEqual(storedHint([cheap]));

    // Its price changes to one the service covers: it leaves the list, and Shopify is told.
    expect((await lookUpPlans(laptopVariant(1))).body.plans?.length).toBeGreaterThan(0);
    await expect.poll(() => hintRow(laptop.id)).toEqual(published([]));
    expect(setCalls().map((call) => call.variables)).toEqual([
      { metafields: [expect.objectContaining({ value: `{"without_plans":["${cheap}"]}` })] },
      { metafields: [expect.objectContaining({ value: '{"without_plans":[]}' })] },
    ]);
    expect(hintInStore(laptop.id)).toEqual(storedHint([]));
  });

  it("records two variants of one product looked up at once", async () => {
    const both = [hoseVariantId(0), hoseVariantId(1)].sort();
    await Promise.all([lookUpPlans(hoseVariant(0)), lookUpPlans(hoseVariant(1))]);
    await expect.poll(() => hintRow(hose.id)).toEqual(published(both));
    // The last value sent is the whole list; a publish that ran meanwhile may have sent one.
    expect(setCalls().at(-1)?.variables).toEqual({
      metafields: [expect.objectContaining({ value: JSON.stringify({ without_plans: both }) })],
    });
    expect(hintInStore(hose.id)).toEqual(storedHint(both));
  });

  it("lands each variant once when ten writers note them at once, repeats included", async () => {
    const { recordVariantPlans } = await import("../../app/models/ProductOfferHint.server");
    const variants = Array.from({ length: 5 }, (_, i) => String(5550010 + i));
    // Two instances noting the same five variants at once: each write is an upsert of its own row.
    await Promise.all(
      [...variants, ...variants].map((variantId) =>
        recordVariantPlans(app.prisma, SHOP, hose.id, variantId, false),
      ),
    );
    expect(await variantRows()).toEqual(
      variants.map((variantId) => ({ productId: hose.id, variantId, withoutPlans: true })),
    );
  });

  it("publishes again when a variant is noted while Shopify is being asked", async () => {
    const { recordVariantPlans } = await import("../../app/models/ProductOfferHint.server");
    const { updateOfferHint } = await import("../../app/storefront/offer-hints.server");
    const { logger } = await import("../../app/logger.server");
    const both = [hoseVariantId(0), hoseVariantId(1)].sort();
    const offline = await offlineGraphql();
    const sent: unknown[] = [];
    const graphql: AdminGraphql = async (query, options) => {
      sent.push(options?.variables);
      // Another instance notes a second variant of the product while the first write is in flight.
      if (sent.length === 1) {
        await recordVariantPlans(app.prisma, SHOP, hose.id, hoseVariantId(1), false);
      }
      return offline(query, options);
    };
    const lookup = { shop: SHOP, productId: hose.id, variantId: hoseVariantId(0), offered: false };
    await updateOfferHint(app.prisma, lookup, graphql, logger);

    expect(await hintRow(hose.id)).toEqual(published(both));
    expect(sent).toEqual([
      {
        metafields: [
          expect.objectContaining({ value: `{"without_plans":["${hoseVariantId(0)}"]}` }),
        ],
      },
      { metafields: [expect.objectContaining({ value: JSON.stringify({ without_plans: both }) })] },
    ]);
    expect(hintInStore(hose.id)).toEqual(storedHint(both));
  });

  it("keeps a refused write and tries again on a later view", async () => {
    // Recorded: Shopify refusing the owner (a product deleted after the variant check); the
    // store cannot delete a product.
    expectAdminGraphql(
      "SetPlanAvailability",
      adminGraphqlFixture("metafields-set-owner-missing.json"),
    );
    await lookUpPlans(hoseVariant(0));
    await expect
      .poll(() => hintRow(hose.id))
      .toEqual({
        withoutPlans: `["${hoseVariantId(0)}"]`,
        published: null,
        lastError: "Owner does not exist.",
      });
    expect(hintInStore(hose.id)).toEqual([]);

    forgetStorefrontActivity();
    await lookUpPlans(hoseVariant(0));
    await expect.poll(() => hintRow(hose.id)).toEqual(published([hoseVariantId(0)]));
    expect(hintInStore(hose.id)).toEqual(storedHint([hoseVariantId(0)]));
  });

  it("keeps a write that Shopify throttled for a later view", async () => {
    // The variant is checked first; then the store's bucket is emptied and its clock stopped, so
    // the metafield write (10 points) is throttled.
    const { checkShopVariant } = await import("../../app/storefront/variant-check.server");
    const { logger } = await import("../../app/logger.server");
    expect(await checkShopVariant(await offlineGraphql(), SHOP, hoseVariantId(0), logger)).toEqual({
      kind: "known",
      productId: hose.id,
    });
    freezeStoreClock();
    expect((await storeControl(`shops/${SHOP}/throttle`, { available: 0 })).status).toBe(200);

    await lookUpPlans(hoseVariant(0));
    await expect
      .poll(() => hintRow(hose.id))
      .toEqual({
        withoutPlans: `["${hoseVariantId(0)}"]`,
        published: null,
        lastError: expect.stringContaining("Throttled") as unknown,
      });
    expect((await storeGraphqlLog()).at(-1)).toMatchObject({
      operation_name: "SetPlanAvailability",
      errors: [expect.objectContaining({ message: "Throttled" })],
    });
    expect(hintInStore(hose.id)).toEqual([]);
  });

  it("records the hint but writes nothing for a shop without an offline session", async () => {
    await app.prisma.session.deleteMany({});
    await lookUpPlans(hoseVariant(0));
    await expect
      .poll(() => hintRow(hose.id))
      .toEqual({ withoutPlans: `["${hoseVariantId(0)}"]`, published: null, lastError: null });
    expect(setCalls()).toHaveLength(0);
    expect(await storeGraphqlLog()).toEqual([]);
  });

  it("keeps no hint when the block sends no product ID (a script cached from before)", async () => {
    const { productId: _unused, ...withoutProduct } = hoseVariant(0);
    expect((await lookUpPlans(withoutProduct)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await app.prisma.productOfferHint.count()).toBe(0);
  });

  it("keeps no hint from a lookup the service failed", async () => {
    await app.restartEmulator(async () => {
      const { body } = await lookUpPlans(hoseVariant(2));
      expect(body).toMatchObject({ plans: [], unavailable: "service_error" });
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await app.prisma.productOfferHint.count()).toBe(0);
  });

  it("refuses a product ID that is not a Shopify ID, with a clear 400", async () => {
    const answer = await lookUpPlans({ ...hoseVariant(0), productId: "gid://shopify/Product/1" });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain("product_id must be a Shopify product ID");
  });
});
