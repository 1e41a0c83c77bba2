import type { ProtectionClient } from "../protection/client.server";
import type { ServiceResult } from "../protection/results";
import type { CartCheckoutConfirmation, EventReceipt, OutboxMessage } from "../protection/types";

/** The calls of the service client the outbox makes. */
export type OutboxSender = Pick<ProtectionClient, "sendOrderEvent" | "confirmCartCheckout">;

export interface SentMessage {
  result: ServiceResult<EventReceipt>;
  /** Set when a 2xx did not repeat what was sent: kept, and logged, but still delivered. */
  mismatch?: string;
}

/**
 * Sends one outbox row's message with its Idempotency-Key: an order event to `/events`, a
 * checkout confirmation to `/cart_checkout` (decision 033). Both answers come back as an event
 * receipt, so the delivery rules (decision 018) apply to both alike: a confirmation has no
 * `event_id`, and its answer is kept as the body.
 */
export async function sendOutboxMessage(
  client: OutboxSender,
  message: OutboxMessage,
  idempotencyKey: string,
): Promise<SentMessage> {
  if (message.type !== "cart_checkout") {
    return { result: await client.sendOrderEvent(message, { idempotencyKey }) };
  }
  const answer = await client.confirmCartCheckout(message.payload, { idempotencyKey });
  return confirmationReceipt(message.payload, answer);
}

/**
 * The service's answer to a confirmation as an event receipt. Any 2xx is acceptance, as for an
 * event: an answer that does not repeat the confirmation is still delivered (sending it again
 * could only make a duplicate), with the difference named.
 */
export function confirmationReceipt(
  sent: CartCheckoutConfirmation,
  answer: ServiceResult<CartCheckoutConfirmation>,
): SentMessage {
  if (answer.kind === "success") {
    const body = JSON.stringify(answer.data);
    const differing = (["cart_id", "user_session_id", "order_id"] as const).filter(
      (field) => answer.data[field] !== sent[field],
    );
    return {
      result: { kind: "success", status: answer.status, data: { event_id: null, body } },
      ...(differing.length
        ? { mismatch: `the answer's ${differing.join(", ")} differ from the confirmation sent` }
        : {}),
    };
  }
  if (
    answer.kind === "retryable" &&
    answer.reason === "invalid_response" &&
    answer.status !== undefined &&
    answer.status >= 200 &&
    answer.status < 300
  ) {
    return {
      result: {
        kind: "success",
        status: answer.status,
        data: { event_id: null, body: answer.message },
      },
      mismatch: answer.message,
    };
  }
  return { result: answer };
}
