import { describe, expect, it } from "vitest";
import type { OrderEvent } from "../protection/types";
import { lineEntryCount, restrictToPlacedLines } from "./placed-lines";

const placed = new Set(["11", "12"]);
const at = "2026-11-21T10:00:00.000Z";

describe("restrictToPlacedLines", () => {
  it("drops fulfillment entries for lines the service never saw", () => {
    const event: OrderEvent = {
      type: "order_fulfillment_added",
      payload: {
        order_id: "1",
        fulfillment_items: [
          { line_item_id: "11", quantity: 1, fulfilled_at: at },
          { line_item_id: "99", quantity: 2, fulfilled_at: at },
        ],
      },
    };
    const { event: restricted, droppedLineIds } = restrictToPlacedLines(event, placed);
    expect(droppedLineIds).toEqual(["99"]);
    expect(restricted).toEqual({
      type: "order_fulfillment_added",
      payload: {
        order_id: "1",
        fulfillment_items: [{ line_item_id: "11", quantity: 1, fulfilled_at: at }],
      },
    });
    expect(lineEntryCount(restricted)).toBe(1);
  });

  it("leaves nothing to send when every cancelled line was added by an edit", () => {
    const event: OrderEvent = {
      type: "order_line_items_cancelled",
      payload: {
        order_id: "1",
        cancelled_line_items: [{ line_item_id: "98", quantity: 1, cancelled_at: at }],
      },
    };
    const { event: restricted, droppedLineIds } = restrictToPlacedLines(event, placed);
    expect(droppedLineIds).toEqual(["98"]);
    expect(lineEntryCount(restricted)).toBe(0);
  });

  it("keeps refunds of known lines and never touches order_cancelled", () => {
    const knownLine = { line_item_id: "12", quantity: 1, refunded_at: at };
    const refund: OrderEvent = {
      type: "order_refund_added",
      payload: { order_id: "1", refund_items: [knownLine] },
    };
    expect(restrictToPlacedLines(refund, placed)).toEqual({ event: refund, droppedLineIds: [] });
    const cancelled: OrderEvent = {
      type: "order_cancelled",
      payload: { order_id: "1", cancelled_at: at },
    };
    expect(lineEntryCount(restrictToPlacedLines(cancelled, new Set()).event)).toBe(1);
  });
});
