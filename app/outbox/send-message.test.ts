import { describe, expect, it } from "vitest";
import type { ServiceResult } from "../protection/results";
import type { CartCheckoutConfirmation, EventReceipt, OrderEvent } from "../protection/types";
import { sendOutboxMessage, type OutboxSender } from "./send-message";

const CONFIRMATION: CartCheckoutConfirmation = {
  cart_id: "Z2NwLWV1cm9wZS13ZXN0MzowMUpXVjNEMks2Vzc0TTg0NERZTVdTMEZXVg",
  user_session_id: "3f2b8c1e-9a4d-4e7b-b6c5-2d1e0f9a8b7c",
  order_id: "6709529444685",
};
const CANCELLED: OrderEvent = {
  type: "order_cancelled",
  payload: { order_id: "6709529444685", cancelled_at: "2025-06-03T14:34:21.000Z" },
};

/** A client that records which call was made and answers as told. */
function recordingClient(answers: {
  event?: ServiceResult<EventReceipt>;
  confirmation?: ServiceResult<CartCheckoutConfirmation>;
}) {
  const calls: { call: string; body: unknown; idempotencyKey?: string }[] = [];
  const client: OutboxSender = {
    sendOrderEvent: (event, options) => {
      calls.push({ call: "sendOrderEvent", body: event, idempotencyKey: options?.idempotencyKey });
      return Promise.resolve(answers.event ?? { kind: "not_found", status: 404 });
    },
    confirmCartCheckout: (confirmation, options) => {
      calls.push({
        call: "confirmCartCheckout",
        body: confirmation,
        idempotencyKey: options?.idempotencyKey,
      });
      return Promise.resolve(answers.confirmation ?? { kind: "not_found", status: 404 });
    },
  };
  return { client, calls };
}

describe("sendOutboxMessage", () => {
  it("sends a checkout confirmation to the confirmation call, with its Idempotency-Key", async () => {
    const { client, calls } = recordingClient({
      confirmation: { kind: "success", status: 200, data: CONFIRMATION },
    });
    const sent = await sendOutboxMessage(
      client,
      { type: "cart_checkout", payload: CONFIRMATION },
      "key-1",
    );
    expect(calls).toEqual([
      { call: "confirmCartCheckout", body: CONFIRMATION, idempotencyKey: "key-1" },
    ]);
    // Delivered, with no event_id: the answer repeats the confirmation.
    expect(sent).toEqual({
      result: {
        kind: "success",
        status: 200,
        data: { event_id: null, body: JSON.stringify(CONFIRMATION) },
      },
    });
  });

  it("sends an order event to /events as before", async () => {
    const receipt: ServiceResult<EventReceipt> = {
      kind: "success",
      status: 200,
      data: { event_id: "evt_1", body: '{"event_id":"evt_1"}' },
    };
    const { client, calls } = recordingClient({ event: receipt });
    expect(await sendOutboxMessage(client, CANCELLED, "key-2")).toEqual({ result: receipt });
    expect(calls).toEqual([{ call: "sendOrderEvent", body: CANCELLED, idempotencyKey: "key-2" }]);
  });

  it("names an answer that differs from the confirmation, and still counts it delivered", async () => {
    const { client } = recordingClient({
      confirmation: { kind: "success", status: 200, data: { ...CONFIRMATION, order_id: "1" } },
    });
    const sent = await sendOutboxMessage(
      client,
      { type: "cart_checkout", payload: CONFIRMATION },
      "k",
    );
    expect(sent.result.kind).toBe("success");
    expect(sent.mismatch).toBe("the answer's order_id differ from the confirmation sent");
  });

  it("counts a 2xx whose body is not the confirmation as delivered", async () => {
    const { client } = recordingClient({
      confirmation: {
        kind: "retryable",
        reason: "invalid_response",
        status: 201,
        message: "POST /sandbox/cart_checkout answered 201 with a body that is not JSON",
      },
    });
    const sent = await sendOutboxMessage(
      client,
      { type: "cart_checkout", payload: CONFIRMATION },
      "k",
    );
    expect(sent.result).toMatchObject({ kind: "success", status: 201, data: { event_id: null } });
  });

  it("passes a failure through unchanged, for the delivery rules", async () => {
    const failure = {
      kind: "retryable",
      reason: "server_error",
      status: 503,
      message: "503",
    } as const;
    const { client } = recordingClient({ confirmation: failure });
    const sent = await sendOutboxMessage(
      client,
      { type: "cart_checkout", payload: CONFIRMATION },
      "k",
    );
    expect(sent).toEqual({ result: failure });
  });
});
