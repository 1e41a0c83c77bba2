// The checkout confirmation an orders/create stands for (decision 033), on copies of the real
// fixtures with the app embed's cart attribute added, and the real ones without it.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../test/support/test-env";
import { readShopifyFixture } from "../../test/support/webhooks";
import { parseWebhookJson } from "../lib/json";
import { mapOrderWebhook, missingConfirmationReason } from "./index";
import { PLAN_ONLY, REPORT_ALL, eventsOf } from "./map-webhook.test-support";

type Json = Record<string, unknown>;

const SESSION = "3f2b8c1e-9a4d-4e7b-b6c5-2d1e0f9a8b7c";
const WITH_SESSION = "orders-create-eur-with-session.json";

function ownOrder(edit: (order: Json) => void = () => {}): Json {
  const text = readFileSync(path.join(repoRoot, "test/fixtures/orders", WITH_SESSION), "utf8");
  const order = parseWebhookJson(text) as Json;
  edit(order);
  return order;
}

function sharedOrder(file: string, edit: (order: Json) => void = () => {}): Json {
  const order = parseWebhookJson(readShopifyFixture("orders_create", file)) as Json;
  edit(order);
  return order;
}

function confirmationsOf(payload: Json, options = REPORT_ALL) {
  const result = mapOrderWebhook("orders/create", payload, options);
  const events = result.kind === "events" ? result.events : [];
  return {
    result,
    confirmations: events.filter((derived) => derived.event.type === "cart_checkout"),
    reason: missingConfirmationReason("orders/create", payload, result),
  };
}

describe("the checkout confirmation of an orders/create", () => {
  it("follows the order's order_placed, with its own key, the same order ID and cart", () => {
    const { result, confirmations, reason } = confirmationsOf(ownOrder());
    const mapped = eventsOf(result);
    expect(mapped.events.map((derived) => derived.dedupeKey)).toEqual([
      "order:6709529444685:placed",
      "order:6709529444685:cart_checkout",
    ]);
    const placed = mapped.events[0]!.event;
    expect(placed.type).toBe("order_placed");
    expect(confirmations).toEqual([
      {
        dedupeKey: "order:6709529444685:cart_checkout",
        event: {
          type: "cart_checkout",
          payload: {
            cart_id: "Z2NwLWV1cm9wZS13ZXN0MzowMUpXVjNEMks2Vzc0TTg0NERZTVdTMEZXVg",
            user_session_id: SESSION,
            order_id: placed.type === "order_placed" ? placed.payload.order_id : "",
          },
        },
      },
    ]);
    expect(mapped.detail).toBe(
      "order_placed with 1 line item(s), 0 plan line(s); checkout confirmation",
    );
    expect(reason).toBeNull();
  });

  it("leaves a ?key= part of the order's cart_token out, should an order carry one", () => {
    const order = ownOrder((o) => (o.cart_token = `${String(o.cart_token)}?key=abc123`));
    const [confirmation] = confirmationsOf(order).confirmations;
    expect(confirmation?.event.payload).toMatchObject({
      cart_id: "Z2NwLWV1cm9wZS13ZXN0MzowMUpXVjNEMks2Vzc0TTg0NERZTVdTMEZXVg",
    });
  });

  it("reads the attribute from a plain object too, trimmed", () => {
    const order = ownOrder((o) => (o.note_attributes = { _svc_user_session_id: ` ${SESSION} ` }));
    const [confirmation] = confirmationsOf(order).confirmations;
    expect(confirmation?.event.payload).toMatchObject({ user_session_id: SESSION });
  });

  it.each([
    "real-eur-qty2_qrshirt_app.json",
    "real-uah-discount-code_petschoice.json",
    "real-usd-line-item-properties_pdf-generator-nodejs.json",
    "shopify-docs-2026-04_gadget.json",
  ])("is not sent for the real %s, which has no session attribute", (file) => {
    const { result, confirmations, reason } = confirmationsOf(sharedOrder(file));
    expect(result.kind).toBe("events");
    expect(confirmations).toEqual([]);
    expect(reason).toBe(
      "no checkout confirmation: no _svc_user_session_id cart attribute (not a storefront cart)",
    );
  });

  it("is not sent for an order without a cart_token (draft order, POS, the Admin)", () => {
    // The Shopify docs sample has cart_token null, as a draft order's has.
    const order = sharedOrder("shopify-docs-2026-04_gadget.json", (o) => {
      o.note_attributes = [{ name: "_svc_user_session_id", value: SESSION }];
    });
    expect(order.cart_token).toBeNull();
    const { confirmations, reason } = confirmationsOf(order);
    expect(confirmations).toEqual([]);
    expect(reason).toBe("no checkout confirmation: the order has no cart_token");
    const empty = confirmationsOf(ownOrder((o) => (o.cart_token = "")));
    expect(empty.confirmations).toEqual([]);
    expect(empty.reason).toBe("no checkout confirmation: the order has no cart_token");
  });

  it("is not sent when the attribute holds no session ID", () => {
    const order = ownOrder(
      (o) => (o.note_attributes = [{ name: "_svc_user_session_id", value: "not-a-session" }]),
    );
    const { result, confirmations, reason } = confirmationsOf(order);
    expect(result.kind).toBe("events");
    expect(confirmations).toEqual([]);
    expect(reason).toBe(
      "no checkout confirmation: the _svc_user_session_id cart attribute is not a session ID",
    );
  });

  it("is not sent when the order's placement is not reported: it could only follow it", () => {
    // No plan line, and reporting orders without a plan is off.
    const { result, confirmations, reason } = confirmationsOf(ownOrder(), PLAN_ONLY);
    expect(result.kind).toBe("ignored");
    expect(confirmations).toEqual([]);
    expect(reason).toBe("no checkout confirmation: the order's placement is not reported");
  });

  it("names no reason for other topics", () => {
    const result = mapOrderWebhook("orders/cancelled", ownOrder(), REPORT_ALL);
    expect(missingConfirmationReason("orders/cancelled", ownOrder(), result)).toBeNull();
  });
});
