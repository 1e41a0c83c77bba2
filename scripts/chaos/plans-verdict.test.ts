import { describe, expect, it } from "vitest";
import type { RecordedRequest } from "../../emulator/state";
import {
  expectedEventsOf,
  judgePlans,
  judgeServiceEvents,
  type EndedLine,
  type EndedOrder,
} from "./plans-verdict";

const NOTE = "svc-protection: plan refunded with its product";
const options = { appRefundNote: NOTE, fulfilsPlans: true };

function line(id: string, fields: Partial<EndedLine>): EndedLine {
  return {
    id,
    variantId: "laptop",
    protects: null,
    placed: 2,
    ordered: 2,
    refunded: 0,
    fulfilled: 0,
    fulfillable: 2,
    ...fields,
  };
}

function order(fields: Partial<EndedOrder>): EndedOrder {
  return {
    id: "1",
    name: "#1001",
    cancelled: false,
    lines: [line("10", {}), line("11", { variantId: "plan", protects: "laptop" })],
    refunds: [],
    fulfilments: 0,
    editsRemovingUnits: 0,
    ...fields,
  };
}

const appRefund = (id: string, trigger: string, planLine: string, quantity = 1) => ({
  id,
  note: `${NOTE} (refund ${trigger})`,
  lines: [{ lineItemId: planLine, quantity, restockType: "cancel" }],
});

describe("the plan chaos verdict", () => {
  it("passes an order whose plans follow its product", () => {
    const verdict = judgePlans(
      [
        order({
          lines: [
            line("10", { refunded: 1, fulfilled: 1, fulfillable: 0 }),
            line("11", {
              variantId: "plan",
              protects: "laptop",
              refunded: 1,
              fulfilled: 1,
              fulfillable: 0,
            }),
          ],
          refunds: [appRefund("21", "20", "11")],
        }),
      ],
      options,
    );
    expect(verdict).toMatchObject({
      appRefunds: 1,
      doubleRefunds: 0,
      missedPlanRefunds: 0,
      overRefunded: 0,
      fulfilmentMismatches: 0,
    });
  });

  it("counts a plan refunded twice for one trigger, a missed one and one refunded too far", () => {
    const twice = order({
      id: "1",
      lines: [
        line("10", { refunded: 2 }),
        line("11", { variantId: "plan", protects: "laptop", refunded: 2 }),
      ],
      refunds: [appRefund("21", "20", "11"), appRefund("22", "20", "11")],
    });
    const missed = order({
      id: "2",
      lines: [line("10", { refunded: 1 }), line("11", { variantId: "plan", protects: "laptop" })],
    });
    const over = order({
      id: "3",
      lines: [line("10", {}), line("11", { variantId: "plan", protects: "laptop", refunded: 1 })],
    });
    const verdict = judgePlans([twice, missed, over], options);
    expect(verdict).toMatchObject({ doubleRefunds: 1, missedPlanRefunds: 1, overRefunded: 1 });
    expect(verdict.orderIds).toEqual(["1", "2", "3"]);
  });

  it("leaves a cancelled order's plans to the merchant, but still counts double refunds", () => {
    const cancelled = order({
      cancelled: true,
      lines: [line("10", { refunded: 2 }), line("11", { variantId: "plan", protects: "laptop" })],
      refunds: [appRefund("21", "20", "11"), appRefund("22", "20", "11")],
    });
    expect(judgePlans([cancelled], options)).toMatchObject({
      doubleRefunds: 1,
      missedPlanRefunds: 0,
    });
  });

  it("counts plan fulfilments beyond their product, or short while units are left", () => {
    const over = order({
      id: "1",
      lines: [
        line("10", {}),
        line("11", { variantId: "plan", protects: "laptop", fulfilled: 1, fulfillable: 1 }),
      ],
    });
    const short = order({
      id: "2",
      lines: [
        line("10", { fulfilled: 2, fulfillable: 0 }),
        line("11", { variantId: "plan", protects: "laptop" }),
      ],
    });
    expect(judgePlans([over, short], options).fulfilmentMismatches).toBe(2);
    expect(
      judgePlans([over, short], { ...options, fulfilsPlans: false }).fulfilmentMismatches,
    ).toBe(0);
  });
});

function stored(
  eventId: string,
  type: string,
  orderId = "1",
  key = eventId,
  answered: boolean | null = true,
): RecordedRequest {
  return {
    method: "POST",
    path: "/sandbox/events",
    environment: "sandbox",
    headers: {},
    query: {},
    body: { type, payload: { order_id: orderId } },
    status: 200,
    received_at: "2026-11-25T00:00:00Z",
    idempotency_key: key,
    event_id: eventId,
    answered,
  };
}

describe("the service's events in the plan chaos verdict", () => {
  const ended = order({
    fulfilments: 1,
    editsRemovingUnits: 1,
    refunds: [
      {
        id: "30",
        note: null,
        lines: [
          { lineItemId: "10", quantity: 1, restockType: "cancel" },
          { lineItemId: "12", quantity: 1, restockType: "no_restock" },
        ],
      },
    ],
  });

  it("expects an event per Shopify action, as the order event mapping sends them", () => {
    expect(expectedEventsOf(ended)).toEqual({
      order_placed: 1,
      order_fulfillment_added: 1,
      order_line_items_cancelled: 2,
      order_refund_added: 1,
      order_cancelled: 0,
    });
  });

  it("counts lost and duplicate events and an order whose first event was not its placement", () => {
    const verdict = judgeServiceEvents(
      [ended],
      [
        stored("e1", "order_fulfillment_added"),
        stored("e2", "order_placed"),
        stored("e2", "order_placed"),
        stored("e3", "order_fulfillment_added"),
        stored("e4", "order_line_items_cancelled"),
        stored("e5", "order_refund_added"),
      ],
    );
    expect(verdict).toMatchObject({
      storedEvents: 5,
      duplicateEvents: 1,
      resentAfterUnknownOutcome: 0,
      lostEvents: 1,
      ordersNotPlacedFirst: 1,
      orders: 1,
    });
  });

  it("allows a copy sent again with the same key only when the answer to the one before was lost", () => {
    /**
     * The order's events, its two line cancellations stored as: the first copy (key k, answered
     * or not), a second copy under `secondKey`, and the second cancellation (key j).
     */
    const judgeCopies = (firstAnswered: boolean, secondKey: string) =>
      judgeServiceEvents(
        [ended],
        [
          stored("e1", "order_placed"),
          stored("e2", "order_fulfillment_added"),
          stored("e3", "order_line_items_cancelled", "1", "k", firstAnswered),
          stored("e4", "order_line_items_cancelled", "1", secondKey),
          stored("e6", "order_line_items_cancelled", "1", "j"),
          stored("e5", "order_refund_added"),
        ],
      );
    // The worker was killed before the answer came: its successor sent the copy again.
    expect(judgeCopies(false, "k")).toMatchObject({
      duplicateEvents: 0,
      resentAfterUnknownOutcome: 1,
      lostEvents: 0,
    });
    // The answer came, and the app sent the copy again all the same: a duplicate.
    expect(judgeCopies(true, "k")).toMatchObject({
      duplicateEvents: 1,
      resentAfterUnknownOutcome: 0,
    });
    // Another key is another event, whatever became of the first copy's answer.
    expect(judgeCopies(false, "m")).toMatchObject({
      duplicateEvents: 1,
      resentAfterUnknownOutcome: 0,
    });
  });
});
