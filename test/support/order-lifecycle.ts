import type { OrderTopic } from "../../app/orders";
import { LIFECYCLE, readLifecycleFixture } from "../fixtures/lifecycle/lifecycle";

// The sample lifecycle (test/fixtures/lifecycle: one order placed, fulfilled, refunded and
// cancelled) as the webhooks of any order: the same bodies under another order ID.

export { LIFECYCLE, readLifecycleFixture };

export interface LifecycleWebhook {
  topic: OrderTopic;
  body: string;
}

/** The webhook body the sample lifecycle sends for `topic`, for order `orderId`. */
export function lifecycleBody(topic: OrderTopic, orderId: string = LIFECYCLE.orderId): string {
  const step = LIFECYCLE.files.find(([candidate]) => candidate === topic);
  if (!step) throw new Error(`No lifecycle fixture for ${topic}`);
  return readLifecycleFixture(step[1]).replaceAll(LIFECYCLE.orderId, orderId);
}

/** Every webhook of the sample lifecycle, in order, for order `orderId`. */
export function orderLifecycle(orderId: string = LIFECYCLE.orderId): LifecycleWebhook[] {
  return LIFECYCLE.files.map(([topic]) => ({ topic, body: lifecycleBody(topic, orderId) }));
}
