import { afterEach, describe, expect, it } from "vitest";
import { expectAdminGraphql, resetAdminGraphql } from "../../test/support/admin-graphql";

/*
 * The recorded-answer stub the app's tests use validates every request as the store does, so a
 * test whose code sends a query Shopify would refuse fails even though its answer was recorded.
 */

const ADMIN_URL = "https://demo.myshopify.com/admin/api/2026-10/graphql.json";

function send(query: string, variables: Record<string, unknown> = {}) {
  return fetch(ADMIN_URL, { method: "POST", body: JSON.stringify({ query, variables }) });
}

describe("the recorded Admin GraphQL stub", () => {
  afterEach(() => resetAdminGraphql());

  it("records nothing unexpected for a request that validates", async () => {
    expectAdminGraphql("Currency", { data: { shop: { currencyCode: "EUR" } } });
    await send("query Currency { shop { currencyCode } }");
    expect(resetAdminGraphql()).toEqual({ unused: [], unexpected: [] });
  });

  it("records a field the schema lacks as unexpected, though the answer was recorded", async () => {
    expectAdminGraphql("Currency", { data: { shop: { currency: "EUR" } } });
    const answer = await send("query Currency { shop { currency } }");
    expect(await answer.json()).toEqual({ data: { shop: { currency: "EUR" } } });
    expect(resetAdminGraphql().unexpected).toEqual([
      "Invalid Admin GraphQL call Currency to demo.myshopify.com: Field 'currency' doesn't exist on type 'Shop'",
    ]);
  });

  it("records variables of the wrong type as unexpected", async () => {
    expectAdminGraphql("Owner", { data: { productVariant: null } });
    await send("query Owner($id: ID!) { productVariant(id: $id) { id } }", { id: null });
    expect(resetAdminGraphql().unexpected).toEqual([
      "Invalid Admin GraphQL call Owner to demo.myshopify.com: Variable $id of type ID! was provided invalid value",
    ]);
  });
});
