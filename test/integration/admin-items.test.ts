import { AppProvider } from "@shopify/shopify-app-remix/react";
import { createElement as h } from "react";
import { renderToString } from "react-dom/server";
import { createMemoryRouter, Outlet, RouterProvider } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import prisma from "../../app/db.server";
import ProtectionItems, {
  action as itemsAction,
  loader as itemsLoader,
  type ItemsActionData,
} from "../../app/routes/app.items/route";
import {
  action as createAction,
  type CreateProductActionData,
} from "../../app/routes/app.items_.new/route";
import {
  ADMIN_API_VERSION,
  adminGraphqlCalls,
  adminGraphqlFixture,
  expectAdminGraphql,
  failAdminGraphql,
  resetAdminGraphql,
} from "../support/admin-graphql";
import { testDatabaseProvider } from "../support/databases";
import {
  advanceStoreClock,
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
import { sessionToken } from "../support/session-token";
import { TEST_API_KEY } from "../support/test-env";
import { adminRequest, callRoute } from "../support/routes";

// The Protection items page through its real routes: a session token as App Bridge sends it,
// the offline session from the database, and Shopify's Admin API played by the local store,
// whose products and publications the tests then read. A recorded answer stands in only for
// what the store cannot produce (each says why).
const provider = testDatabaseProvider();
const SHOP_A = "admin-items-a.myshopify.com";
const SHOP_B = "admin-items-b.myshopify.com";
const SHOP_JPY = "admin-items-jpy.myshopify.com";
/** An install from before the app asked for `write_publications`, not yet approved again. */
const SCOPES_BEFORE_PUBLICATIONS = "read_orders,write_orders,read_products,write_products";
/** The store's offline token for SHOP_A, installed before each test. */
let tokenA = "";

const store = () => localStore().state;
/** The Online Store's publication of a shop in the store. */
const onlineStoreOf = (shop: string) => store().shop(shop)?.onlineStorePublicationId ?? "";
type StoreVariant = StoreProduct["variants"][number];
/** The one product the app created in the shop. */
function createdProduct(shop = SHOP_A) {
  const products = store().products(shop);
  expect(products).toHaveLength(1);
  return products[0]!;
}

async function createProduct(
  shop: string,
  fields: { title: string; prices: string; category?: string },
) {
  const result = await callRoute(
    createAction,
    adminRequest(shop, "/app/items/new", {
      form: [
        ["title", fields.title],
        ["prices", fields.prices],
        ["category", fields.category ?? ""],
      ],
    }),
  );
  expect(result).toBeInstanceOf(Response);
  return result as Response;
}

async function postItems(shop: string, body: [string, string][]) {
  const result = await callRoute(itemsAction, adminRequest(shop, "/app/items", { form: body }));
  expect(result).toBeInstanceOf(Response);
  const response = result as Response;
  return { status: response.status, data: (await response.json()) as ItemsActionData };
}

async function loadItems(shop: string, path = "/app/items") {
  const result = await callRoute(itemsLoader, adminRequest(shop, path));
  expect(result).not.toBeInstanceOf(Response);
  return result as Awaited<ReturnType<typeof itemsLoader>>;
}

type ItemsData = Awaited<ReturnType<typeof loadItems>>;

/**
 * The page as the admin shows it after a redirect: the route's component in a router holding the
 * `routes/app` loader's locale and this route's loader data, inside the app's Polaris and App
 * Bridge provider. Effects do not run, so the page's own Online Store check is not asked.
 */
function renderItemsPage(data: ItemsData, search: string) {
  // Polaris warns that its layout effects do nothing on the server; the browser runs them.
  const consoleError = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    if (!String(args[0]).includes("useLayoutEffect does nothing on the server")) {
      process.stderr.write(`${args.map(String).join(" ")}\n`);
    }
  });
  try {
    const router = createMemoryRouter(
      [
        {
          id: "routes/app",
          path: "/app",
          loader: () => null,
          element: h(AppProvider, { isEmbeddedApp: true, apiKey: TEST_API_KEY }, h(Outlet)),
          children: [
            {
              id: "routes/app.items",
              path: "items",
              loader: () => null,
              element: h(ProtectionItems),
            },
          ],
        },
      ],
      {
        initialEntries: [`/app/items${search}`],
        hydrationData: {
          loaderData: {
            "routes/app": { locale: "en", apiKey: TEST_API_KEY },
            "routes/app.items": data,
          },
        },
      },
    );
    return renderToString(h(RouterProvider, { router }));
  } finally {
    consoleError.mockRestore();
  }
}

/** The page's visible text, without markup; a missing string would show as its key. */
function textOf(html: string) {
  return html
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/[\s\u00a0\u202f]+/g, " ");
}

const UNTRANSLATED_KEY = /\bitems\.[a-z_]+\.[\w.]+/i;
const MAKE_AVAILABLE = "Make Product protection available on the Online Store channel";

/** The redirect after creating: the items page, with what it must say. */
function redirectOf(response: Response) {
  expect(response.status).toBe(302);
  const location = new URL(response.headers.get("Location") ?? "", "https://svc-protection.test");
  expect(location.pathname).toBe("/app/items");
  return location;
}

/** Minor units are 64-bit in the database (BigInt); the figures here are small numbers. */
function withNumberPrice<T extends { priceAmount: bigint | null }>(item: T) {
  return { ...item, priceAmount: item.priceAmount === null ? null : Number(item.priceAmount) };
}

async function itemsOf(shop: string) {
  const items = await prisma.protectionItem.findMany({
    where: { shop },
    orderBy: { variantId: "asc" },
  });
  return items.map(withNumberPrice);
}

/** The stored items' mapping fields, without IDs and timestamps: whole rows to compare. */
async function itemFieldsOf(shop: string) {
  const items = await prisma.protectionItem.findMany({
    where: { shop },
    orderBy: { variantId: "asc" },
    select: {
      strategy: true,
      productId: true,
      variantId: true,
      title: true,
      priceAmount: true,
      currency: true,
      category: true,
      createdByApp: true,
    },
  });
  return items.map(withNumberPrice);
}

async function seedItem(shop: string, variantId: string, extra: Partial<{ title: string }> = {}) {
  return prisma.protectionItem.create({
    data: {
      shop,
      strategy: "one_to_one",
      productId: "8816243261745",
      variantId,
      title: extra.title ?? `Warranty ${variantId}`,
      priceAmount: 4900,
      currency: "EUR",
      category: "tv",
    },
  });
}

beforeEach(async () => {
  await resetLocalStore();
  await prisma.session.deleteMany({});
  await prisma.protectionItem.deleteMany({});
  tokenA = (await installInStore(prisma, SHOP_A)).accessToken;
  await installInStore(prisma, SHOP_B);
});

afterEach(() => {
  releaseStoreClock();
  // Every queued answer was asked for, and nothing else was.
  expect(resetAdminGraphql()).toEqual({ unused: [], unexpected: [] });
});

describe(`create the protection product (${provider})`, () => {
  it("creates one unlisted, hidden, untaxed, unshipped product, stores its variants in EUR cents and publishes it to the Online Store", async () => {
    const response = await createProduct(SHOP_A, {
      title: "Product protection",
      prices: "19.99, 29.99, 59.99",
      category: "smartphones",
    });

    // What Shopify now holds: one product, hidden from search and collections, its variants
    // untaxed and unshipped, on the Online Store and no other channel.
    const product = createdProduct();
    expect(product).toMatchObject({
      title: "Product protection",
      status: "UNLISTED",
      productType: "Product protection",
      tags: ["svc-protection"],
      publicationIds: [onlineStoreOf(SHOP_A)],
    });
    expect(product.metafields).toEqual([
      expect.objectContaining({
        namespace: "seo",
        key: "hidden",
        type: "number_integer",
        value: "1",
      }),
    ]);
    expect(
      product.variants.map((variant) => ({
        title: variant.title,
        price: variant.price,
        taxable: variant.taxable,
        requiresShipping: variant.requiresShipping,
        selectedOptions: variant.selectedOptions,
      })),
    ).toEqual(
      [1999, 2999, 5999].map((price) => ({
        title: `${(price / 100).toFixed(2)} EUR`,
        price,
        taxable: false,
        requiresShipping: false,
        selectedOptions: [{ name: "Plan", value: `${(price / 100).toFixed(2)} EUR` }],
      })),
    );
    expect(store().products(SHOP_B)).toEqual([]);

    const location = redirectOf(response);
    expect(location.searchParams.get("created")).toBe("3");
    expect(location.searchParams.get("product")).toBe(product.id);
    expect(location.searchParams.get("title")).toBe("Product protection");
    expect(location.searchParams.get("publish")).toBe("published");

    const calls = adminGraphqlCalls();
    expect(calls.map((call) => call.operationName)).toEqual([
      "ShopCurrency",
      "CreateProtectionProduct",
      "OnlineStorePublication",
      "PublishProtectionProduct",
    ]);
    for (const call of calls) {
      expect(call).toMatchObject({
        shop: SHOP_A,
        apiVersion: ADMIN_API_VERSION,
        accessToken: tokenA,
        answeredBy: "store",
      });
    }
    const mutation = calls[1]!;
    expect(mutation.query).toContain("productSet(synchronous: $synchronous, input: $productSet)");
    expect(mutation.variables).toEqual({
      synchronous: true,
      productSet: {
        title: "Product protection",
        status: "UNLISTED",
        productType: "Product protection",
        tags: ["svc-protection"],
        metafields: [{ namespace: "seo", key: "hidden", type: "number_integer", value: "1" }],
        productOptions: [
          {
            name: "Plan",
            position: 1,
            values: [{ name: "19.99 EUR" }, { name: "29.99 EUR" }, { name: "59.99 EUR" }],
          },
        ],
        variants: ["19.99", "29.99", "59.99"].map((price) => ({
          optionValues: [{ optionName: "Plan", name: `${price} EUR` }],
          price,
          taxable: false,
          inventoryPolicy: "CONTINUE",
          inventoryItem: { tracked: false, requiresShipping: false },
        })),
      },
    });
    // productSet itself puts the product in no collection and on no channel.
    expect(mutation.variables.productSet).not.toHaveProperty("collections");
    expect(mutation.query).not.toMatch(/publish/i);
    // The Online Store is found among the sales channels' publications, then the product is
    // published to it, and to nothing else.
    expect(calls[2]!.query).toContain("publications(first: 50, catalogType: APP)");
    expect(calls[3]!.query).toContain("publishablePublish(id: $id, input: $input)");
    expect(calls[3]!.variables).toEqual({
      id: gidOf("Product", product.id),
      input: [{ publicationId: gidOf("Publication", onlineStoreOf(SHOP_A)) }],
    });
    // The store answered each with the shop's offline token.
    expect((await storeGraphqlLog()).map((request) => [request.shop, request.token])).toEqual(
      Array.from({ length: 4 }, () => [SHOP_A, "offline"]),
    );

    expect(await itemFieldsOf(SHOP_A)).toEqual(
      product.variants.map((variant) => ({
        strategy: "one_to_many",
        productId: product.id,
        variantId: variant.id,
        title: `Product protection - ${variant.title}`,
        priceAmount: variant.price,
        currency: "EUR",
        category: "smartphones",
        createdByApp: true,
      })),
    );
    expect(await itemsOf(SHOP_B)).toEqual([]);

    // The page says the product is on the Online Store, and asks the merchant for nothing.
    const text = textOf(renderItemsPage(await loadItems(SHOP_A), location.search));
    expect(text).toContain("Created the protection product with 3 items");
    expect(text).toContain("It is available on your Online Store sales channel");
    expect(text).not.toContain("Make Product protection available");
    expect(text).not.toMatch(UNTRANSLATED_KEY);
  });

  it("stores JPY prices in yen, the currency's real minor unit", async () => {
    await installInStore(prisma, SHOP_JPY, { currency: "JPY" });

    const response = await createProduct(SHOP_JPY, { title: "製品保証", prices: "1,500\n3000" });

    expect(response.status).toBe(302);
    const variables = adminGraphqlCalls()[1]!.variables as {
      productSet: { variants: { price: string }[]; status: string };
    };
    expect(variables.productSet.status).toBe("UNLISTED");
    expect(variables.productSet.variants.map((variant) => variant.price)).toEqual(["1500", "3000"]);
    const product = createdProduct(SHOP_JPY);
    expect(product.variants.map((variant) => [variant.title, variant.price])).toEqual([
      ["1500 JPY", 1500],
      ["3000 JPY", 3000],
    ]);
    const items = await itemsOf(SHOP_JPY);
    expect(
      items.map((item) => [item.variantId, item.priceAmount, item.currency, item.category]),
    ).toEqual(product.variants.map((variant) => [variant.id, variant.price, "JPY", null]));
  });

  it("refuses a price the shop's currency cannot hold before anything is created", async () => {
    await installInStore(prisma, SHOP_JPY, { currency: "JPY" });

    const response = await createProduct(SHOP_JPY, { title: "製品保証", prices: "1500.50, 3000" });

    expect(response.status).toBe(422);
    expect((await response.json()) as CreateProductActionData).toEqual({
      status: "invalid",
      fieldErrors: {
        prices: [
          {
            key: "items.new.priceIssues.too_many_decimals",
            values: { value: "1500.50", decimals: 0, currency: "JPY" },
          },
        ],
      },
      formErrors: [],
    });
    expect(adminGraphqlCalls().map((call) => call.operationName)).toEqual(["ShopCurrency"]);
    expect(store().products(SHOP_JPY)).toEqual([]);
    expect(await itemsOf(SHOP_JPY)).toEqual([]);
  });

  it("checks the form without calling Shopify", async () => {
    const response = await createProduct(SHOP_A, { title: "  ", prices: "" });

    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({
      status: "invalid",
      fieldErrors: {
        title: [{ key: "items.errors.titleRequired" }],
        prices: [{ key: "items.errors.pricesRequired" }],
      },
    });
    expect(adminGraphqlCalls()).toEqual([]);
    expect(await storeGraphqlLog()).toEqual([]);
  });

  it("shows Shopify's user errors inline and stores nothing", async () => {
    // Recorded: Shopify's daily variant-creation limit and price ceiling, which the store lacks.
    expectAdminGraphql(
      "CreateProtectionProduct",
      adminGraphqlFixture("product-set-user-errors.json"),
    );

    const response = await createProduct(SHOP_A, { title: "Product protection", prices: "19.99" });

    expect(response.status).toBe(422);
    expect((await response.json()) as CreateProductActionData).toEqual({
      status: "invalid",
      fieldErrors: { prices: [{ text: "Price must be less than 1000000000000000000" }] },
      formErrors: [
        {
          text: "Daily variant creation limit reached. Please try again later. See https://help.shopify.com/api/getting-started/api-call-limit for more information about rate limits and how to avoid them.",
        },
      ],
    });
    expect(await itemsOf(SHOP_A)).toEqual([]);
  });

  it.each([
    [
      "a GraphQL error (throttled)",
      async () => {
        // The store's bucket, emptied and then given 50 ms (5 points): enough for ShopCurrency
        // (1 point), not for productSet (10), which Shopify's throttle answers.
        freezeStoreClock();
        expect((await storeControl(`shops/${SHOP_A}/throttle`, { available: 0 })).status).toBe(200);
        advanceStoreClock(50);
      },
    ],
    [
      "an HTTP 500",
      // Recorded: the store never answers 5xx.
      () =>
        expectAdminGraphql(
          "CreateProtectionProduct",
          adminGraphqlFixture("internal-server-error.json"),
          { status: 500 },
        ),
    ],
    // Recorded: a network failure.
    ["a network failure", () => failAdminGraphql("CreateProtectionProduct")],
  ])("reports %s as a Shopify error and stores nothing", async (name, answer) => {
    await answer();

    const response = await createProduct(SHOP_A, { title: "Product protection", prices: "19.99" });

    expect(response.status).toBe(502);
    const data = (await response.json()) as CreateProductActionData;
    expect(data.status).toBe("shopify_error");
    expect(adminGraphqlCalls().map((call) => call.operationName)).toEqual([
      "ShopCurrency",
      "CreateProtectionProduct",
    ]);
    if (name.includes("throttled")) {
      const productSet = (await storeGraphqlLog()).at(-1);
      expect(productSet).toMatchObject({
        operation_name: "CreateProtectionProduct",
        errors: [expect.objectContaining({ message: "Throttled" })],
      });
    }
    expect(store().products(SHOP_A)).toEqual([]);
    expect(await itemsOf(SHOP_A)).toEqual([]);
  });

  it("says which product Shopify created when its items cannot be saved", async () => {
    // A real database failure: the table is away while the app saves.
    await prisma.$executeRawUnsafe(`ALTER TABLE "ProtectionItem" RENAME TO "ProtectionItemAway"`);
    let response: Response;
    try {
      response = await createProduct(SHOP_A, {
        title: "Product protection",
        prices: "19.99, 29.99, 59.99",
      });
    } finally {
      await prisma.$executeRawUnsafe(`ALTER TABLE "ProtectionItemAway" RENAME TO "ProtectionItem"`);
    }

    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({
      status: "save_failed",
      productId: createdProduct().id,
    });
    expect(await itemsOf(SHOP_A)).toEqual([]);
  });
});

describe(`make the protection product available on the Online Store (${provider})`, () => {
  /** Creates the EUR product; what becomes of publishing it is set up by the test. */
  async function createEurProduct() {
    const response = await createProduct(SHOP_A, {
      title: "Product protection",
      prices: "19.99, 29.99, 59.99",
    });
    const location = redirectOf(response);
    const product = createdProduct();
    expect(location.searchParams.get("created")).toBe("3");
    expect(location.searchParams.get("product")).toBe(product.id);
    // The product exists in Shopify: its items are kept whatever became of publishing it.
    expect((await itemsOf(SHOP_A)).map((item) => item.variantId)).toEqual(
      product.variants.map((variant) => variant.id),
    );
    return location;
  }

  /** The page after the redirect: a warning that names the product and links to it. */
  async function expectMakeAvailableBanner(location: URL, reason: string) {
    const html = renderItemsPage(await loadItems(SHOP_A), location.search);
    const text = textOf(html);
    expect(text).toContain("Created the protection product with 3 items");
    expect(text).toContain(MAKE_AVAILABLE);
    expect(text).toContain(reason);
    expect(text).toContain("Until then, customers cannot add its plans to their carts.");
    expect(text).not.toContain("It is available on your Online Store sales channel");
    expect(html).toContain(`href="shopify://admin/products/${createdProduct().id}"`);
    expect(text).not.toMatch(UNTRANSLATED_KEY);
  }

  it("keeps the items and shows the warning when Shopify refuses to publish (userErrors)", async () => {
    // Recorded: the store lets every shop publish to its Online Store.
    expectAdminGraphql(
      "PublishProtectionProduct",
      adminGraphqlFixture("publishable-publish-user-errors.json"),
    );

    const location = await createEurProduct();

    expect(adminGraphqlCalls()[3]!.variables).toEqual({
      id: gidOf("Product", createdProduct().id),
      input: [{ publicationId: gidOf("Publication", onlineStoreOf(SHOP_A)) }],
    });
    expect(createdProduct().publicationIds).toEqual([]);
    expect(location.searchParams.get("publish")).toBe("user_errors");
    expect(location.searchParams.get("publishError")).toBe(
      "Your store isn't eligible to publish to this sales channel.",
    );
    await expectMakeAvailableBanner(
      location,
      "Shopify refused to publish it: Your store isn't eligible to publish to this sales channel.",
    );
  });

  it("keeps the items and shows the warning when the shop has no Online Store publication", async () => {
    // Recorded: every shop in the store has the Online Store channel.
    expectAdminGraphql(
      "OnlineStorePublication",
      adminGraphqlFixture("publications-without-online-store.json"),
    );

    const location = await createEurProduct();

    // Nothing is published to another channel in its place.
    expect(adminGraphqlCalls().map((call) => call.operationName)).not.toContain(
      "PublishProtectionProduct",
    );
    expect(createdProduct().publicationIds).toEqual([]);
    expect(location.searchParams.get("publish")).toBe("no_online_store");
    await expectMakeAvailableBanner(
      location,
      "Your shop has no Online Store sales channel, so the app could not publish it.",
    );
  });

  it("keeps the items and shows the warning on an install without write_publications", async () => {
    await prisma.session.update({
      where: { id: `offline_${SHOP_A}` },
      data: { scope: SCOPES_BEFORE_PUBLICATIONS },
    });
    // Recorded: the store answers every field whatever the scopes (no ACCESS_DENIED).
    expectAdminGraphql(
      "OnlineStorePublication",
      adminGraphqlFixture("publications-access-denied.json"),
    );

    const location = await createEurProduct();

    expect(location.searchParams.get("publish")).toBe("access_denied");
    await expectMakeAvailableBanner(location, "The app is not allowed to publish products yet.");
  });

  it("keeps the items and shows the warning when the publish call fails", async () => {
    // Recorded: a network failure.
    failAdminGraphql("PublishProtectionProduct");

    const location = await createEurProduct();

    expect(location.searchParams.get("publish")).toBe("failed");
    expect(createdProduct().publicationIds).toEqual([]);
    await expectMakeAvailableBanner(
      location,
      "Shopify did not answer when the app tried to publish it.",
    );
  });
});

describe(`whether created products are on the Online Store (${provider})`, () => {
  /**
   * Two products the app created, one on the Online Store and one taken off it by the merchant,
   * and a merchant's own product mapped one-to-one: in the store and as the app's items.
   */
  async function seedCreatedItems() {
    const published = await createStoreProduct(SHOP_A, {
      title: "Product protection",
      status: "UNLISTED",
      variants: [{ title: "19.99 EUR", price: "19.99" }],
    });
    const unpublished = await createStoreProduct(SHOP_A, {
      title: "Protection plans (electronics)",
      status: "UNLISTED",
      published: false,
      variants: [{ title: "2-Year Protection (€300–€500)", price: "19.99" }],
    });
    const merchants = await createStoreProduct(SHOP_A, {
      title: "Extended warranty",
      variants: [{ title: "2 years", price: "19.99" }],
    });
    const rows = [
      [published, "Product protection - 19.99 EUR", true],
      [unpublished, "2-Year Protection (€300–€500)", true],
      [merchants, "Extended warranty - 2 years", false],
    ] as const;
    for (const [product, title, createdByApp] of rows) {
      await prisma.protectionItem.create({
        data: {
          shop: SHOP_A,
          strategy: createdByApp ? "one_to_many" : "one_to_one",
          productId: product.id,
          variantId: product.variants[0]!.id,
          title,
          priceAmount: 1999,
          currency: "EUR",
          createdByApp,
        },
      });
    }
    return { published, unpublished };
  }

  it("lists the items without asking Shopify; asks only when the page asks", async () => {
    const { published, unpublished } = await seedCreatedItems();

    const page = await loadItems(SHOP_A);
    expect(page.items).toHaveLength(3);
    expect(page.onlineStore).toBeNull();
    expect(adminGraphqlCalls()).toEqual([]);

    const checked = await loadItems(SHOP_A, "/app/items?check=online-store");

    expect(checked.items).toEqual(page.items);
    expect(checked.onlineStore).toEqual({
      status: "checked",
      products: [
        { productId: published.id, title: "Product protection", published: true },
        { productId: unpublished.id, title: "Protection plans (electronics)", published: false },
      ],
    });
    // Only the products the app created, on the Online Store's publication.
    expect(adminGraphqlCalls().map((call) => call.operationName)).toEqual([
      "OnlineStorePublication",
      "ProtectionProductsPublished",
    ]);
    expect(adminGraphqlCalls()[1]).toMatchObject({
      shop: SHOP_A,
      accessToken: tokenA,
      answeredBy: "store",
      variables: {
        ids: [gidOf("Product", published.id), gidOf("Product", unpublished.id)],
        publicationId: gidOf("Publication", onlineStoreOf(SHOP_A)),
      },
    });

    // The merchant publishes the other one by hand: the next check shows Shopify's state.
    store().publish(SHOP_A, unpublished.id, [onlineStoreOf(SHOP_A)], { kind: "merchant" });
    const again = await loadItems(SHOP_A, "/app/items?check=online-store");
    expect(again.onlineStore).toMatchObject({
      products: [{ published: true }, { published: true }],
    });
  });

  it("says why it cannot tell: no Online Store, a missing scope, or Shopify failing", async () => {
    await seedCreatedItems();
    const check = () => loadItems(SHOP_A, "/app/items?check=online-store");

    // Recorded: every shop in the store has the Online Store channel.
    expectAdminGraphql(
      "OnlineStorePublication",
      adminGraphqlFixture("publications-without-online-store.json"),
    );
    expect((await check()).onlineStore).toEqual({ status: "no_online_store" });

    // Recorded: the store answers every field whatever the scopes (no ACCESS_DENIED).
    expectAdminGraphql(
      "OnlineStorePublication",
      adminGraphqlFixture("publications-access-denied.json"),
    );
    expect((await check()).onlineStore).toEqual({ status: "access_denied" });

    // Recorded: a network failure, after the store found the Online Store.
    failAdminGraphql("ProtectionProductsPublished");
    const failed = await check();
    expect(failed.onlineStore).toEqual({ status: "failed" });
    expect(failed.items).toHaveLength(3);
    expect(adminGraphqlCalls().map((call) => [call.operationName, call.answeredBy])).toEqual([
      ["OnlineStorePublication", "recording"],
      ["OnlineStorePublication", "recording"],
      ["OnlineStorePublication", "store"],
      ["ProtectionProductsPublished", "recording"],
    ]);
  });

  it("asks nothing when the shop has no product the app created", async () => {
    await seedItem(SHOP_A, "47921150263601");

    const checked = await loadItems(SHOP_A, "/app/items?check=online-store");

    expect(checked.onlineStore).toEqual({ status: "checked", products: [] });
    expect(adminGraphqlCalls()).toEqual([]);
  });
});

describe(`map existing products and variants (${provider})`, () => {
  /** The merchant's own products in the store, to pick in the resource picker. */
  async function merchantCatalog() {
    const warranty = await createStoreProduct(SHOP_A, {
      title: "Extended warranty",
      variants: [
        { title: "2 years", price: "49.00" },
        { title: "3 years", price: "79.90" },
      ],
    });
    const plan = await createStoreProduct(SHOP_A, {
      title: "Protection plan",
      variants: [{ title: "Default Title", price: "0.00" }],
    });
    const [twoYears, threeYears] = warranty.variants as [StoreVariant, StoreVariant];
    return { warranty, twoYears, threeYears, plan };
  }

  it("loads the picked variants from Shopify and stores them one-to-one with their prices", async () => {
    const { warranty, twoYears, threeYears } = await merchantCatalog();

    const { status, data } = await postItems(SHOP_A, [
      ["intent", "map"],
      ["strategy", "one_to_one"],
      ["category", "tv"],
      ["id", gidOf("ProductVariant", twoYears.id)],
      ["id", gidOf("ProductVariant", threeYears.id)],
    ]);

    expect({ status, data }).toEqual({
      status: 200,
      data: { intent: "map", status: "mapped", count: 2 },
    });
    expect(adminGraphqlCalls()).toHaveLength(1);
    expect(adminGraphqlCalls()[0]).toMatchObject({
      shop: SHOP_A,
      accessToken: tokenA,
      answeredBy: "store",
      variables: {
        ids: [gidOf("ProductVariant", twoYears.id), gidOf("ProductVariant", threeYears.id)],
      },
    });
    expect(await itemFieldsOf(SHOP_A)).toEqual([
      {
        strategy: "one_to_one",
        productId: warranty.id,
        variantId: twoYears.id,
        title: "Extended warranty - 2 years",
        priceAmount: 4900,
        currency: "EUR",
        category: "tv",
        createdByApp: false,
      },
      {
        strategy: "one_to_one",
        productId: warranty.id,
        variantId: threeYears.id,
        title: "Extended warranty - 3 years",
        priceAmount: 7990,
        currency: "EUR",
        category: "tv",
        createdByApp: false,
      },
    ]);
  });

  it("maps a picked product's variants one-to-all, with no fixed price", async () => {
    const { plan } = await merchantCatalog();

    const { status } = await postItems(SHOP_A, [
      ["intent", "map"],
      ["strategy", "one_to_all"],
      ["id", gidOf("Product", plan.id)],
    ]);

    expect(status).toBe(200);
    expect(await itemsOf(SHOP_A)).toMatchObject([
      {
        strategy: "one_to_all",
        productId: plan.id,
        variantId: plan.variants[0]!.id,
        title: "Protection plan",
        priceAmount: null,
        currency: null,
        category: null,
        createdByApp: false,
      },
    ]);
  });

  it("remaps a variant the app created without losing its category or origin", async () => {
    const { warranty, twoYears, threeYears } = await merchantCatalog();
    await prisma.protectionItem.create({
      data: {
        shop: SHOP_A,
        strategy: "one_to_many",
        productId: warranty.id,
        variantId: twoYears.id,
        title: "Old title",
        priceAmount: 1999,
        currency: "EUR",
        category: "smartphones",
        createdByApp: true,
      },
    });

    await postItems(SHOP_A, [
      ["intent", "map"],
      ["strategy", "one_to_one"],
      ["id", gidOf("ProductVariant", twoYears.id)],
      ["id", gidOf("ProductVariant", threeYears.id)],
    ]);

    const items = await itemsOf(SHOP_A);
    expect(
      items.map((item) => [
        item.variantId,
        item.strategy,
        item.category,
        item.createdByApp,
        item.priceAmount,
      ]),
    ).toEqual([
      [twoYears.id, "one_to_one", "smartphones", true, 4900],
      [threeYears.id, "one_to_one", null, false, 7990],
    ]);
  });

  it("stores nothing when Shopify no longer has one of the picked variants", async () => {
    const { twoYears } = await merchantCatalog();
    const gone = gidOf("ProductVariant", "40000000000000");

    const { status, data } = await postItems(SHOP_A, [
      ["intent", "map"],
      ["strategy", "one_to_one"],
      ["id", gidOf("ProductVariant", twoYears.id)],
      ["id", gone],
    ]);

    expect(status).toBe(404);
    expect(data).toEqual({ intent: "map", status: "not_found", ids: [gone] });
    expect(await itemsOf(SHOP_A)).toEqual([]);
  });

  it("refuses what is not a product or variant ID, or a strategy the app creates itself", async () => {
    const notAnId = await postItems(SHOP_A, [
      ["intent", "map"],
      ["strategy", "one_to_one"],
      ["id", "47921150263601"],
    ]);
    const wrongStrategy = await postItems(SHOP_A, [
      ["intent", "map"],
      ["strategy", "one_to_many"],
      ["id", "gid://shopify/ProductVariant/47921150263601"],
    ]);

    expect(notAnId.status).toBe(422);
    expect(notAnId.data).toMatchObject({
      status: "invalid",
      fieldErrors: { ids: "items.errors.pickSomething" },
    });
    expect(wrongStrategy.status).toBe(422);
    expect(wrongStrategy.data).toMatchObject({
      status: "invalid",
      fieldErrors: { strategy: "items.errors.strategy" },
    });
    expect(adminGraphqlCalls()).toEqual([]);
  });

  it("reports a Shopify failure while loading the picked variants", async () => {
    // Recorded: a network failure.
    failAdminGraphql("ProtectionItemCandidates");

    const { status, data } = await postItems(SHOP_A, [
      ["intent", "map"],
      ["strategy", "one_to_one"],
      ["id", "gid://shopify/ProductVariant/47921150263601"],
    ]);

    expect(status).toBe(502);
    expect(data.status).toBe("shopify_error");
    expect(await itemsOf(SHOP_A)).toEqual([]);
  });
});

describe(`list, copy and remove (${provider})`, () => {
  it("lists only the session shop's items, and copies them as tab-separated text", async () => {
    await seedItem(SHOP_A, "47921150263601", { title: "Extended warranty - 2 years" });
    await prisma.protectionItem.create({
      data: {
        shop: SHOP_A,
        strategy: "one_to_all",
        productId: "8816243294513",
        variantId: "47921150329137",
        title: "Protection plan",
        priceAmount: null,
        currency: null,
        category: null,
      },
    });
    await seedItem(SHOP_B, "55555555555555", { title: "Shop B warranty" });

    const data = await loadItems(SHOP_A);

    expect(data.shop).toBe(SHOP_A);
    expect(data.items.map((item) => item.variantId)).toEqual(["47921150263601", "47921150329137"]);
    expect(data.copyText).toBe(
      [
        "merchant_product_id\ttitle\tprice\tcategory\tstrategy",
        "47921150263601\tExtended warranty - 2 years\t49.00 EUR\ttv\tone-to-one",
        "47921150329137\tProtection plan\tdynamic\t\tone-to-all",
      ].join("\n"),
    );
    expect(JSON.stringify(data)).not.toContain("55555555555555");
    expect((await loadItems(SHOP_B)).items.map((item) => item.variantId)).toEqual([
      "55555555555555",
    ]);
  });

  it("removes the shop's own item and leaves Shopify alone", async () => {
    const item = await seedItem(SHOP_A, "47921150263601");

    const first = await postItems(SHOP_A, [
      ["intent", "remove"],
      ["itemId", item.id],
    ]);
    const again = await postItems(SHOP_A, [
      ["intent", "remove"],
      ["itemId", item.id],
    ]);

    expect(first).toEqual({ status: 200, data: { intent: "remove", status: "removed" } });
    expect(again).toEqual({ status: 404, data: { intent: "remove", status: "not_found" } });
    expect(await itemsOf(SHOP_A)).toEqual([]);
    expect(adminGraphqlCalls()).toEqual([]);
  });

  it("never removes another shop's item", async () => {
    const itemOfB = await seedItem(SHOP_B, "55555555555555");

    const result = await postItems(SHOP_A, [
      ["intent", "remove"],
      ["itemId", itemOfB.id],
    ]);

    expect(result).toEqual({ status: 404, data: { intent: "remove", status: "not_found" } });
    expect(await itemsOf(SHOP_B)).toHaveLength(1);
  });

  it("refuses a request without a valid session token", async () => {
    const forged = sessionToken(SHOP_A, { secret: "forged" });
    const result = await callRoute(
      itemsLoader,
      adminRequest(SHOP_A, "/app/items", { token: forged }),
    );
    expect(result).toBeInstanceOf(Response);
    expect((result as Response).status).toBe(401);
  });
});
