import { describe, expect, it } from "vitest";
import type { Catalogue } from "./catalogue";
import type { ErrorBody } from "./errors";
import type { AvailablePlan } from "./protection-rules";
import {
  lineItem,
  orderPlacedPayload,
  PLAN_ITEMS,
  PRODUCTS,
  withTestEmulator,
  USER_SESSION_ID,
  type Environment,
} from "./test-support";

const client = withTestEmulator();

interface PlansAnswer {
  product: {
    id: string;
    category: string;
    title: string;
    brand: string;
    price_amount: number;
    price_currency: string;
  };
  plans: {
    merchant_product_id: string;
    price_amount: number;
    price_currency: string;
    product_reference: string;
    title: Record<string, string>;
    insurance_details_url: string;
  }[];
}

interface CheckoutAnswer {
  order_id: string;
  redirect_link?: string;
  assist_link?: string;
  available_plans: AvailablePlan[];
}

async function lookUpPlans(
  query: Record<string, string>,
  environment: Environment = "sandbox",
  version?: string,
) {
  const answer = await client.call<PlansAnswer>("plans", { environment, version, query });
  expect(answer.status).toBe(200);
  return answer.body;
}

function productQuery(
  product: {
    product_id: string;
    product_title: string;
    product_brand?: string;
    price_amount: number;
  },
  currency = "eur",
): Record<string, string> {
  return {
    product_id: product.product_id,
    product_title: product.product_title,
    ...(product.product_brand === undefined ? {} : { product_brand: product.product_brand }),
    price_amount: String(product.price_amount),
    price_currency: currency,
    user_session_id: USER_SESSION_ID,
  };
}

describe("GET /plans", () => {
  it("finds plans by a keyword in the title and the product's price band", async () => {
    const answer = await lookUpPlans(productQuery(PRODUCTS.laptop));
    expect(answer.product).toEqual({
      id: PRODUCTS.laptop.product_id,
      category: "electronics",
      title: PRODUCTS.laptop.product_title,
      brand: "Apple",
      price_amount: 129900,
      price_currency: "eur",
    });
    expect(answer.plans).toEqual([
      {
        merchant_product_id: "8104420102005",
        price_amount: 12999,
        price_currency: "eur",
        product_reference: PRODUCTS.laptop.product_id,
        title: { en: "2-year protection", de: "2 Jahre Schutz" },
        insurance_details_url: "https://example.com/svc/insurance/electronics-2-year",
      },
      expect.objectContaining({
        merchant_product_id: "8104420102006",
        title: { en: "3-year protection", de: "3 Jahre Schutz" },
      }),
    ]);
  });

  it("finds a product listed by id in the catalogue even when its title has no keyword", async () => {
    const answer = await lookUpPlans(
      productQuery({
        product_id: "7982301839417",
        product_title: "Sonos Era 100",
        price_amount: 24900,
      }),
    );
    expect(answer.product.category).toBe("electronics");
    expect(answer.plans.map((plan) => plan.merchant_product_id)).toEqual([
      "8104420102001",
      "8104420102002",
    ]);
  });

  it("uses the asked product_category", async () => {
    const answer = await lookUpPlans({
      ...productQuery({ product_id: "8457294311001", product_title: "KIVIK", price_amount: 69900 }),
      product_category: "furniture",
    });
    expect(answer.product.category).toBe("furniture");
    expect(answer.plans.map((plan) => plan.title.de)).toEqual(["3 Jahre Möbelschutz"]);
  });

  it("answers plans: [] for a product no category matches", async () => {
    const answer = await lookUpPlans(productQuery(PRODUCTS.cable));
    expect(answer.product.category).toBe("unknown");
    expect(answer.plans).toEqual([]);
  });

  it.each([
    [999, []],
    [1000, ["8104420102001", "8104420102002"]],
    [29999, ["8104420102001", "8104420102002"]],
    [30000, ["8104420102003", "8104420102004"]],
    [500001, []],
  ])("picks the price band by inclusive bounds: %i cents", async (priceAmount, expectedPlanIds) => {
    const answer = await lookUpPlans(
      productQuery({ ...PRODUCTS.headphones, price_amount: priceAmount }),
    );
    expect(answer.plans.map((plan) => plan.merchant_product_id)).toEqual(expectedPlanIds);
  });

  it("answers no plans for a currency other than the catalogue's", async () => {
    const answer = await lookUpPlans(productQuery(PRODUCTS.laptop, "usd"));
    expect(answer.product.price_currency).toBe("usd");
    expect(answer.plans).toEqual([]);
  });

  it("answers the same in both environments and both versions", async () => {
    const sandboxCurrent = await lookUpPlans(productQuery(PRODUCTS.sofa), "sandbox", "v2.0");
    const productionEarliest = await lookUpPlans(productQuery(PRODUCTS.sofa), "production", "v1.1");
    expect(sandboxCurrent.plans).toHaveLength(1);
    expect(productionEarliest).toEqual(sandboxCurrent);
  });

  it("follows a catalogue replaced at run time until the next reset", async () => {
    const catalogue: Catalogue = {
      currency: "eur",
      categories: [
        {
          id: "garden",
          title_keywords: ["cable"],
          product_ids: [],
          price_bands: [
            {
              min_price_amount: 0,
              plans: [
                {
                  merchant_product_id: "8104420109999",
                  price_amount: 499,
                  title: { en: "1-year protection", de: "1 Jahr Schutz", fr: "Protection 1 an" },
                  insurance_details_url: "https://example.com/svc/insurance/garden-1-year",
                },
              ],
            },
          ],
        },
      ],
    };
    const replaced = await client.control("catalogue", { body: catalogue });
    expect(replaced.status).toBe(200);

    const withReplacement = await lookUpPlans(productQuery(PRODUCTS.cable));
    expect(withReplacement.plans.map((plan) => plan.title)).toEqual([
      { en: "1-year protection", de: "1 Jahr Schutz", fr: "Protection 1 an" },
    ]);
    expect((await lookUpPlans(productQuery(PRODUCTS.laptop))).plans).toEqual([]);

    await client.reset();
    expect((await lookUpPlans(productQuery(PRODUCTS.cable))).plans).toEqual([]);
    expect((await lookUpPlans(productQuery(PRODUCTS.laptop))).plans).toHaveLength(2);
  });

  it("refuses a catalogue that breaks the catalogue schema", async () => {
    const answer = await client.control<ErrorBody>("catalogue", {
      body: {
        currency: "EUR",
        categories: [
          { id: "x", title_keywords: [], product_ids: [], price_bands: [{ plans: [] }] },
        ],
      },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.error_code).toBe("validation_failed");
    expect(answer.body.error.validation_errors.map((entry) => entry.field)).toEqual(
      expect.arrayContaining([
        "currency",
        "categories[0].price_bands[0].min_price_amount",
        "categories[0].price_bands[0].plans",
      ]),
    );
    expect((await lookUpPlans(productQuery(PRODUCTS.laptop))).plans).toHaveLength(2);
  });
});

describe("GET /checkouts", () => {
  const ORDER_ID = "5558016491833";

  async function getCheckout(
    orderId: string,
    checkoutType: string,
    environment: Environment = "sandbox",
  ) {
    return client.call<CheckoutAnswer & ErrorBody>("checkouts", {
      environment,
      query: { order_id: orderId, checkout_type: checkoutType },
    });
  }

  it("refuses an order whose placement was never reported", async () => {
    const answer = await getCheckout(ORDER_ID, "redirect");
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({
      error: { error_code: "order_not_found", validation_errors: [] },
    });
  });

  it("answers 404 no_plan_available when no product of the order has a plan", async () => {
    await client.placeOrder(
      orderPlacedPayload({ line_items: [lineItem("13612765970490", PRODUCTS.cable, 2)] }),
    );
    const answer = await getCheckout(ORDER_ID, "assist");
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({
      error: { error_code: "no_plan_available", validation_errors: [] },
    });
  });

  it("offers a plan for each protectable line with a redirect link", async () => {
    await client.placeOrder(orderPlacedPayload());
    const answer = await getCheckout(ORDER_ID, "redirect");
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      order_id: ORDER_ID,
      redirect_link: expect.stringMatching(
        new RegExp(`^${client.emulator.url}sandbox/checkout/[0-9a-f]{24}$`),
      ),
      available_plans: [
        {
          line_item_id: "13612765970489",
          product_reference: PRODUCTS.laptop.product_id,
          plan_price_amount: 12999,
          plan_price_currency: "eur",
        },
        {
          line_item_id: "13612765970491",
          product_reference: PRODUCTS.headphones.product_id,
          plan_price_amount: 5999,
          plan_price_currency: "eur",
        },
      ],
    });
    expect(answer.body).not.toHaveProperty("assist_link");
  });

  it("gives links unique per order and checkout type, stable when asked again", async () => {
    await client.placeOrder(orderPlacedPayload());
    await client.placeOrder(orderPlacedPayload({ order_id: "5558016491834" }));
    const redirect = (await getCheckout(ORDER_ID, "redirect")).body.redirect_link;
    const assist = (await getCheckout(ORDER_ID, "assist")).body.assist_link;
    const otherOrderRedirect = (await getCheckout("5558016491834", "redirect")).body.redirect_link;
    const redirectAgain = (await getCheckout(ORDER_ID, "redirect")).body.redirect_link;

    expect(redirect).toBeDefined();
    expect(assist).toBeDefined();
    expect(new Set([redirect, assist, otherOrderRedirect]).size).toBe(3);
    expect(redirectAgain).toBe(redirect);
  });

  it("serves a page behind the link, in the link's own environment", async () => {
    await client.placeOrder(orderPlacedPayload(), "production");
    const answer = await getCheckout(ORDER_ID, "assist", "production");
    const link = answer.body.assist_link ?? "";
    expect(link.startsWith(`${client.emulator.url}checkout/`)).toBe(true);

    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`assist checkout for order ${ORDER_ID} (production)`);
    const wrongEnvironment = await fetch(link.replace("/checkout/", "/sandbox/checkout/"));
    expect(wrongEnvironment.status).toBe(404);
  });

  it("leaves out plan lines and products already protected by one", async () => {
    const planLine = lineItem(
      "13612765970492",
      PLAN_ITEMS.electronicsTwoYearHighBand,
      1,
      PRODUCTS.laptop.product_id,
    );
    const payload = orderPlacedPayload();
    await client.placeOrder({ ...payload, line_items: [...payload.line_items, planLine] });
    const answer = await getCheckout(ORDER_ID, "redirect");
    expect(answer.body.available_plans.map((plan) => plan.line_item_id)).toEqual([
      "13612765970491",
    ]);
  });

  it("knows a plan line without product_reference by its protection item id", async () => {
    // A placeholder protection item with a dynamic title, as in the one-to-all strategy: its
    // title has a keyword and its price is in a band, yet it is a plan, not a product.
    const unreferencedPlanLine = lineItem("13612765970492", {
      ...PLAN_ITEMS.electronicsTwoYearMidBand,
      product_title: "2-year protection for WH-1000XM5 Wireless Headphones",
    });
    await client.placeOrder(
      orderPlacedPayload({
        line_items: [lineItem("13612765970491", PRODUCTS.headphones), unreferencedPlanLine],
      }),
    );
    const answer = await getCheckout(ORDER_ID, "redirect");
    expect(answer.body.available_plans.map((plan) => plan.line_item_id)).toEqual([
      "13612765970491",
    ]);
  });

  it("leaves out lines refunded in full or cancelled, and keeps partly refunded ones", async () => {
    await client.placeOrder(
      orderPlacedPayload({
        line_items: [
          lineItem("13612765970489", PRODUCTS.laptop, 1),
          lineItem("13612765970491", PRODUCTS.headphones, 2),
          lineItem("13612765970493", PRODUCTS.sofa, 1),
        ],
      }),
    );
    await client.call("events", {
      body: {
        type: "order_refund_added",
        payload: {
          order_id: ORDER_ID,
          refund_items: [
            {
              line_item_id: "13612765970489",
              quantity: 1,
              refunded_at: "2025-03-20T14:03:10.250Z",
            },
            {
              line_item_id: "13612765970491",
              quantity: 1,
              refunded_at: "2025-03-20T14:03:10.250Z",
            },
          ],
        },
      },
    });
    await client.call("events", {
      body: {
        type: "order_line_items_cancelled",
        payload: {
          order_id: ORDER_ID,
          cancelled_line_items: [
            { line_item_id: "13612765970493", cancelled_at: "2025-03-14T11:00:00.000Z" },
          ],
        },
      },
    });
    const answer = await getCheckout(ORDER_ID, "redirect");
    expect(answer.body.available_plans.map((plan) => plan.line_item_id)).toEqual([
      "13612765970491",
    ]);
  });

  it("answers no_plan_available for a cancelled order", async () => {
    await client.placeOrder(orderPlacedPayload());
    const cancelled = await client.call("events", {
      body: {
        type: "order_cancelled",
        payload: { order_id: ORDER_ID, cancelled_at: "2025-03-21T10:00:00.000Z" },
      },
    });
    expect(cancelled.status).toBe(200);
    const answer = await getCheckout(ORDER_ID, "redirect");
    expect(answer.status).toBe(404);
    expect(answer.body.error.error_code).toBe("no_plan_available");
  });

  it("does not see an order placed in the other environment", async () => {
    await client.placeOrder(orderPlacedPayload(), "sandbox");
    const answer = await getCheckout(ORDER_ID, "redirect", "production");
    expect(answer.status).toBe(404);
    expect(answer.body.error.error_code).toBe("order_not_found");
  });
});
