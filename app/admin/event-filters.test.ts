import { describe, expect, it } from "vitest";
import {
  encodeReceiptCursor,
  hasFilters,
  pageSearch,
  parseEventId,
  parseEventLogQuery,
  recoverySourceOf,
  withFilters,
} from "./event-filters";

const parse = (search: string) => parseEventLogQuery(new URLSearchParams(search));

describe("parseEventLogQuery", () => {
  it("opens the events tab, newest first, with no filter", () => {
    expect(parse("")).toEqual({
      tab: "events",
      status: undefined,
      eventType: undefined,
      order: undefined,
      attention: undefined,
      environment: undefined,
      cursor: undefined,
      invalid: [],
    });
  });

  it("reads every filter of the events tab", () => {
    expect(parse("status=dead&type=order_refund_added&order=5558016491833&env=production")).toEqual(
      {
        tab: "events",
        status: "dead",
        eventType: "order_refund_added",
        order: { kind: "id_or_name", orderId: "5558016491833", orderName: "#5558016491833" },
        attention: undefined,
        environment: "production",
        cursor: undefined,
        invalid: [],
      },
    );
  });

  it("reads the webhooks tab's filters: receipt statuses and topics", () => {
    expect(parse("tab=webhooks&status=unprocessable&type=refunds/create&order=42")).toMatchObject({
      tab: "webhooks",
      status: "unprocessable",
      topic: "refunds/create",
      order: { kind: "id_or_name", orderId: "42", orderName: "#42" },
      invalid: [],
    });
  });

  it("does not take a status or type of the other tab", () => {
    expect(parse("tab=webhooks&status=dead&type=order_placed")).toMatchObject({
      tab: "webhooks",
      status: undefined,
      topic: undefined,
      invalid: ["status", "type"],
    });
    expect(parse("status=processed&type=orders/create")).toMatchObject({
      tab: "events",
      status: undefined,
      eventType: undefined,
      invalid: ["status", "type"],
    });
  });

  it("accepts an order ID with spaces or as an Admin API GID, keeping IDs above 2^53 exact", () => {
    expect(parse("order=%205558016491833%20").order).toEqual({
      kind: "id_or_name",
      orderId: "5558016491833",
      orderName: "#5558016491833",
    });
    expect(parse("order=gid://shopify/Order/820982911946154508").order).toEqual({
      kind: "id",
      orderId: "820982911946154508",
    });
  });

  it("takes an order name as Shopify writes it, with the shop's prefix or suffix", () => {
    expect(parse("order=%231001").order).toEqual({ kind: "name", orderName: "#1001" });
    expect(parse("order=%20%23SO-1001-B%20").order).toEqual({
      kind: "name",
      orderName: "#SO-1001-B",
    });
    // A bare number is the order with that ID, or else the order of that name.
    expect(parse("order=1001").order).toEqual({
      kind: "id_or_name",
      orderId: "1001",
      orderName: "#1001",
    });
  });

  it("drops letters, an overlong number or a bare # and says which parameter it was", () => {
    for (const order of ["abc", "12a", "123456789012345678901", "%23", "%23%231001", "%23%0A1"]) {
      const query = parse(`order=${order}`);
      expect(query.order).toBeUndefined();
      expect(query.invalid).toEqual(["order"]);
    }
  });

  it("narrows both tabs to the orders needing attention, and only with attention=1", () => {
    expect(parse("attention=1").attention).toBe(true);
    expect(parse("tab=webhooks&attention=1").attention).toBe(true);
    expect(hasFilters(parse("attention=1"))).toBe(true);
    const wrong = parse("attention=yes");
    expect(wrong.attention).toBeUndefined();
    expect(wrong.invalid).toEqual(["attention"]);
    // Switching tabs keeps it: it is about orders, as in both tabs.
    expect(withFilters(new URLSearchParams("attention=1&status=dead"), { tab: "webhooks" })).toBe(
      "attention=1&tab=webhooks",
    );
  });

  it("narrows the events to those the Admin API told of, by how, on the events tab only", () => {
    expect(parse("recovered=reconciliation")).toMatchObject({ recoveredBy: "reconciliation" });
    expect(parse("recovered=backfill&status=delivered")).toMatchObject({
      recoveredBy: "backfill",
      status: "delivered",
      invalid: [],
    });
    expect(parse("recovered=webhook")).toMatchObject({
      recoveredBy: undefined,
      invalid: ["recovered"],
    });
    expect(parse("tab=webhooks&recovered=backfill")).not.toHaveProperty("recoveredBy");
  });

  it("drops unknown values and an unknown tab, and keeps the valid rest", () => {
    expect(parse("tab=everything&status=lost&env=staging&type=order_placed")).toMatchObject({
      tab: "events",
      status: undefined,
      environment: undefined,
      eventType: "order_placed",
      invalid: ["tab", "status", "env"],
    });
  });

  it("treats empty values as absent, not invalid", () => {
    expect(parse("status=&order=%20&env=")).toMatchObject({ invalid: [] });
  });

  it("reads an event cursor in either direction; before wins over after", () => {
    expect(parse("before=120").cursor).toEqual({ direction: "older", id: 120 });
    expect(parse("after=71").cursor).toEqual({ direction: "newer", id: 71 });
    expect(parse("before=120&after=71").cursor).toEqual({ direction: "older", id: 120 });
  });

  it("drops a cursor that is not a positive whole number", () => {
    for (const value of ["0", "-3", "1.5", "abc", "99999999999999999999"]) {
      const query = parse(`before=${value}`);
      expect(query.cursor).toBeUndefined();
      expect(query.invalid).toEqual(["before"]);
    }
  });

  it("round-trips a receipt cursor (time and UUID)", () => {
    const receivedAt = new Date("2026-11-21T10:00:00.123Z");
    const id = "7c9e6679-7425-40de-944b-e07fc1f90ae7";
    const cursor = encodeReceiptCursor({ receivedAt, id });
    expect(parse(`tab=webhooks&before=${cursor}`).cursor).toEqual({
      direction: "older",
      receivedAtMs: receivedAt.getTime(),
      id,
    });
    expect(parse(`tab=webhooks&after=${cursor}`).cursor).toMatchObject({ direction: "newer" });
    expect(parse("tab=webhooks&before=12_x;drop").invalid).toEqual(["before"]);
    expect(parse("tab=webhooks&before=120").invalid).toEqual(["before"]);
  });
});

describe("hasFilters", () => {
  it("is true only when something narrows the list (a page cursor does not)", () => {
    expect(hasFilters(parse(""))).toBe(false);
    expect(hasFilters(parse("before=10"))).toBe(false);
    expect(hasFilters(parse("env=sandbox"))).toBe(true);
    expect(hasFilters(parse("recovered=backfill"))).toBe(true);
    expect(hasFilters(parse("tab=webhooks&type=orders/create"))).toBe(true);
    expect(hasFilters(parse("tab=webhooks&order=1"))).toBe(true);
  });
});

describe("withFilters and pageSearch", () => {
  const params = (search: string) => new URLSearchParams(search);

  it("sets and removes filters and starts again at the newest entry", () => {
    expect(withFilters(params("status=dead&before=40"), { type: "order_placed" })).toBe(
      "status=dead&type=order_placed",
    );
    expect(withFilters(params("status=dead&after=40"), { status: undefined })).toBe("");
    expect(withFilters(params(""), { environment: "sandbox", order: "42" })).toBe(
      "env=sandbox&order=42",
    );
  });

  it("keeps only the order ID when the tab changes, and leaves the default tab out", () => {
    expect(
      withFilters(params("status=dead&type=order_placed&env=sandbox&order=42&before=9"), {
        tab: "webhooks",
      }),
    ).toBe("order=42&tab=webhooks");
    expect(withFilters(params("tab=webhooks&status=ignored"), { tab: "events" })).toBe("");
    expect(withFilters(params("recovered=backfill&order=42"), { tab: "webhooks" })).toBe(
      "order=42&tab=webhooks",
    );
  });

  it("leaves Shopify's launch parameters out of the links", () => {
    const launched = params(
      "shop=a.myshopify.com&host=YWRtaW4&id_token=eyJ&embedded=1&status=dead",
    );
    expect(withFilters(launched, { type: "order_placed" })).toBe("status=dead&type=order_placed");
    expect(pageSearch(launched, "older", 7)).toBe("status=dead&before=7");
  });

  it("changes only the cursor when paging", () => {
    expect(pageSearch(params("status=dead&before=90"), "newer", 41)).toBe("status=dead&after=41");
    expect(pageSearch(params("after=41"), "older", "1700000000000_abc")).toBe(
      "before=1700000000000_abc",
    );
  });
});

describe("recoverySourceOf", () => {
  it("names the two ways the Admin API tells of an event, and nothing for a webhook's", () => {
    expect(recoverySourceOf("reconciliation")).toBe("reconciliation");
    expect(recoverySourceOf("backfill")).toBe("backfill");
    expect(recoverySourceOf(null)).toBeNull();
    expect(recoverySourceOf("cli")).toBeNull();
  });
});

describe("parseEventId", () => {
  it("takes only a positive whole number", () => {
    expect(parseEventId("42")).toBe(42);
    for (const value of [undefined, "", "0", "-1", "4e2", "42abc", "99999999999999999999"]) {
      expect(parseEventId(value)).toBeNull();
    }
  });
});
