import fc from "fast-check";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseWebhookJson } from "../lib/json";
import { ORDER_TOPICS, mapOrderWebhook } from "../orders";
import { parseCartUpdateBody, toCartUpdateRequest } from "./cart";
import { PLAN_QUERY_PARAMETERS, parsePlanOfferRequest } from "./plan-request";
import { SESSION, cartSample } from "./storefront.test-support";
import { repoRoot } from "../../test/support/test-env";

// Hostile and generated input on every parser behind the public edge (issue 13): the order
// webhook mapper, the lossless JSON parser and the app proxy's body and query parsers. None of
// them throws, and none loses a digit of an ID above 2^53.

const OPTIONS = { reportOrdersWithoutPlan: true };

/** A Shopify ID as Shopify writes it, above 2^53 or not: 1 to 19 digits, no leading zero. */
const shopifyId = fc
  .bigInt({ min: 1n, max: 9_223_372_036_854_775_807n })
  .map((id) => id.toString());

/** Values a hostile payload may put anywhere. */
const anyJson = fc.oneof(
  fc.jsonValue(),
  shopifyId,
  fc.constantFrom(null, "", -1, 1.5, 1e21, [], {}, "gid://shopify/Order/1"),
);

/** `value` with the member at a random path replaced by `replacement`. */
function replaceSomewhere(value: unknown, pick: number, replacement: unknown): unknown {
  const paths: (string | number)[][] = [];
  const walk = (node: unknown, at: (string | number)[]) => {
    paths.push(at);
    if (Array.isArray(node)) node.forEach((child, index) => walk(child, [...at, index]));
    else if (node && typeof node === "object") {
      for (const [key, child] of Object.entries(node)) walk(child, [...at, key]);
    }
  };
  walk(value, []);
  const target = paths[pick % paths.length]!;
  if (target.length === 0) return replacement;
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of target.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  parent[target.at(-1)!] = replacement;
  return copy;
}

function fixture(file: string): string {
  return readFileSync(path.join(repoRoot, "test/fixtures/orders", file), "utf8");
}

describe("mapOrderWebhook on hostile payloads", () => {
  const orders = [
    "orders-create-eur-with-plan.json",
    "orders-create-19-digit-ids.json",
    "refunds-create-cancel-and-return.json",
  ].map((file) => parseWebhookJson(fixture(file)));

  it("never throws on any JSON value, for every topic", () => {
    fc.assert(
      fc.property(fc.constantFrom(...ORDER_TOPICS), anyJson, (topic, payload) => {
        const result = mapOrderWebhook(topic, payload, OPTIONS);
        expect(["events", "ignored", "unprocessable"]).toContain(result.kind);
      }),
      { numRuns: 1000 },
    );
  });

  it("never throws on a real order with any one member replaced by anything", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ORDER_TOPICS),
        fc.constantFrom(...orders),
        fc.nat(),
        anyJson,
        (topic, order, pick, replacement) => {
          const result = mapOrderWebhook(
            topic,
            replaceSomewhere(order, pick, replacement),
            OPTIONS,
          );
          expect(["events", "ignored", "unprocessable"]).toContain(result.kind);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("keeps every digit of order and variant IDs, whatever their size", () => {
    const text = fixture("orders-create-19-digit-ids.json");
    fc.assert(
      fc.property(shopifyId, shopifyId, (orderId, variantId) => {
        const raw = text
          .replace('"id": 6709529444685123457', `"id": ${orderId}`)
          .replace('"variant_id": 5173452324897312347', `"variant_id": ${variantId}`);
        const result = mapOrderWebhook("orders/create", parseWebhookJson(raw), OPTIONS);
        expect(result.kind).toBe("events");
        if (result.kind !== "events") return;
        expect(result.orderId).toBe(orderId);
        expect(JSON.stringify(result.events)).toContain(`"${variantId}"`);
      }),
      { numRuns: 300 },
    );
  });
});

describe("the cart update body on hostile input", () => {
  const cart = cartSample("cadWithPlan");

  it("never throws on any JSON text, parsed as the route parses it", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (text) => {
        let json: unknown;
        try {
          json = parseWebhookJson(text);
        } catch (error) {
          expect(error).toBeInstanceOf(SyntaxError);
          return;
        }
        const parsed = parseCartUpdateBody(json);
        if (parsed.ok) toCartUpdateRequest(parsed.value);
        else expect(parsed.issues.length).toBeGreaterThan(0);
      }),
      { numRuns: 2000 },
    );
  });

  it("refuses or maps a real cart with any one member replaced, and never throws", () => {
    fc.assert(
      fc.property(fc.nat(), anyJson, (pick, replacement) => {
        const body = replaceSomewhere({ user_session_id: SESSION, cart }, pick, replacement);
        const parsed = parseCartUpdateBody(body);
        if (parsed.ok) toCartUpdateRequest(parsed.value);
        else
          for (const issue of parsed.issues) {
            expect(typeof issue.path).toBe("string");
            expect(typeof issue.message).toBe("string");
          }
      }),
      { numRuns: 2000 },
    );
  });

  it("keeps every digit of a variant ID sent as raw JSON digits", () => {
    const text = JSON.stringify({ user_session_id: SESSION, cart });
    const firstVariant = String((cart as { items: { variant_id: number }[] }).items[0]!.variant_id);
    fc.assert(
      fc.property(shopifyId, (variantId) => {
        const raw = text.replace(`"variant_id":${firstVariant}`, `"variant_id":${variantId}`);
        const parsed = parseCartUpdateBody(parseWebhookJson(raw));
        expect(parsed.ok).toBe(true);
        if (!parsed.ok) return;
        expect(toCartUpdateRequest(parsed.value).line_items[0]?.product_id).toBe(variantId);
      }),
      { numRuns: 300 },
    );
  });
});

describe("the plans query on hostile input", () => {
  // The shop is not read from the query, but a hostile request may carry it too.
  const names = [...PLAN_QUERY_PARAMETERS, "shop"];

  it("answers a value or issues for any query string, and never throws", () => {
    const query = fc.array(
      fc.tuple(fc.constantFrom(...names), fc.oneof(fc.string(), shopifyId, fc.fullUnicodeString())),
      { maxLength: 12 },
    );
    fc.assert(
      fc.property(query, (pairs) => {
        const parsed = parsePlanOfferRequest(new URLSearchParams(pairs));
        if (!parsed.ok) expect(parsed.issues.length).toBeGreaterThan(0);
      }),
      { numRuns: 2000 },
    );
  });

  it("keeps every digit of the variant and product IDs", () => {
    fc.assert(
      fc.property(shopifyId, shopifyId, (variantId, productId) => {
        const parsed = parsePlanOfferRequest(
          new URLSearchParams({
            variant_id: variantId,
            product_id: productId,
            price: "19900",
            currency: "EUR",
            user_session_id: SESSION,
            product_title: "Laptop",
            product_brand: "",
          }),
        );
        expect(parsed).toMatchObject({ ok: true, value: { variantId, productId } });
      }),
      { numRuns: 300 },
    );
  });
});
