// The compliance and scopes bodies hold the store's values exactly, and the app's own webhook code
// accepts them: the signed shop (decision 015), whom a privacy request is about, the new scopes.
import { describe, expect, it } from "vitest";
import { parseWebhookJson } from "../../app/lib/json";
import { customerSubjectOf } from "../../app/privacy/customer-data";
import { checkSignedFacts, type WebhookTopic } from "../../app/webhooks/signed-facts";
import type { CustomerDataRequest, ScopesChange, WebhookBody } from "../model";
import {
  appScopesUpdateWebhookBody,
  customersDataRequestWebhookBody,
  customersRedactWebhookBody,
  shopRedactWebhookBody,
} from "./index";
import { idSequence, sampleShop } from "./sample-order.test-support";

const nextId = idSequence();
const shop = sampleShop(nextId);
const customer = {
  id: nextId(),
  email: "Ada@Example.com",
  firstName: "Ada",
  lastName: "Lovelace",
  phone: "+44 20 7946 0958",
};
const orderIds = [nextId(), nextId()];
const dataRequest: CustomerDataRequest = { id: nextId(), customer, orderIds };
const scopesChange: ScopesChange = {
  id: nextId(),
  previous: ["read_orders", "write_orders"],
  current: ["read_orders", "write_orders", "read_products"],
  updatedAt: "2026-11-28T10:00:00.000Z",
};

function parsed(body: WebhookBody): Record<string, unknown> {
  return parseWebhookJson(body.json) as Record<string, unknown>;
}

describe("compliance bodies", () => {
  it("customers/data_request: the shop, the customer, their orders and the request's ID, exact", () => {
    const body = customersDataRequestWebhookBody(shop, dataRequest);
    expect(body.json).toBe(
      `{"shop_id":${shop.id},"shop_domain":"trail-demo.myshopify.com",` +
        `"customer":{"id":${customer.id},"email":"Ada@Example.com","phone":"+44 20 7946 0958"},` +
        `"orders_requested":[${orderIds.join(",")}],"data_request":{"id":${dataRequest.id}}}`,
    );
  });

  it("customers/redact: the shop, the customer and the orders to redact", () => {
    const body = parsed(customersRedactWebhookBody(shop, { customer, orderIds }));
    expect(body).toEqual({
      shop_id: shop.id,
      shop_domain: shop.domain,
      customer: { id: customer.id, email: customer.email, phone: customer.phone },
      orders_to_redact: orderIds,
    });
  });

  it("writes a customer without an e-mail address as null", () => {
    const guest = { ...customer, email: "", phone: null };
    const body = parsed(customersRedactWebhookBody(shop, { customer: guest, orderIds: [] }));
    expect(body.customer).toEqual({ id: customer.id, email: null, phone: null });
    expect(body.orders_to_redact).toEqual([]);
  });

  it("shop/redact: the shop's ID and domain only", () => {
    expect(shopRedactWebhookBody(shop).json).toBe(
      `{"shop_id":${shop.id},"shop_domain":"trail-demo.myshopify.com"}`,
    );
  });

  it("app/scopes_update: both scope lists, the shop's GID and a UTC instant", () => {
    expect(parsed(appScopesUpdateWebhookBody(shop, scopesChange))).toEqual({
      id: scopesChange.id,
      shop_id: `gid://shopify/Shop/${shop.id}`,
      previous: ["read_orders", "write_orders"],
      current: ["read_orders", "write_orders", "read_products"],
      updated_at: "2026-11-28T10:00:00.000Z",
    });
  });
});

describe("the app's webhook code reads them", () => {
  const deliveries: [WebhookTopic, WebhookBody][] = [
    ["customers/data_request", customersDataRequestWebhookBody(shop, dataRequest)],
    ["customers/redact", customersRedactWebhookBody(shop, { customer, orderIds })],
    ["shop/redact", shopRedactWebhookBody(shop)],
  ];

  it.each(deliveries)("%s: the signed body names the shop of the header", (topic, body) => {
    const claims = { routeTopic: topic, headerTopic: topic, payload: parseWebhookJson(body.json) };
    expect(checkSignedFacts({ ...claims, headerShop: shop.domain })).toEqual({
      ok: true,
      shop: shop.domain,
      shopIsSigned: true,
    });
    // The same body replayed under another shop's header is refused.
    expect(checkSignedFacts({ ...claims, headerShop: "other.myshopify.com" })).toMatchObject({
      ok: false,
      status: 400,
    });
  });

  it("finds whom a data request and a redaction are about: order IDs past 2^53, the e-mail, the customer", () => {
    for (const [topic, body] of deliveries.slice(0, 2)) {
      expect(customerSubjectOf(parseWebhookJson(body.json)), topic).toEqual({
        orderIds,
        email: "ada@example.com",
        customerId: customer.id,
      });
    }
  });

  it("accepts app/scopes_update on the header's shop and reads the current scopes", () => {
    const payload = parseWebhookJson(appScopesUpdateWebhookBody(shop, scopesChange).json);
    expect(
      checkSignedFacts({
        routeTopic: "app/scopes_update",
        headerTopic: "app/scopes_update",
        headerShop: shop.domain,
        payload,
      }),
    ).toEqual({ ok: true, shop: shop.domain, shopIsSigned: false });
    // The body names its shop by GID; handleScopesUpdate checks it against the shop's token and
    // stores the token's scopes (decision 045). `current` is what was granted.
    const { current } = payload as { current: unknown };
    expect(Array.isArray(current) && current.map(String).join(",")).toBe(
      "read_orders,write_orders,read_products",
    );
  });
});
