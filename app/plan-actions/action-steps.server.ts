import { numericIdOf, shopifyGid } from "../lib/shopify-id";
import { PROTECTED_PRODUCT_REF_PROPERTY, type OrderLineRef } from "../orders";
import type { AdminData, AdminOperation, AdminVariables } from "../services/admin-api.server";
import { failureOutcome, type ActionContext, type ActionOutcome } from "./outcome.server";
import { callShopify, type ShopifyAnswer } from "./shopify-calls.server";

/*
 * What every kind of plan action does with Shopify: read the order again, name its lines as the
 * plan rules do, and record each mutation on the row before sending it. One way for all, so that
 * a refund, an edit, a fulfilment and the cancel check agree on which line protects which
 * product, and a run after a crash always finds what was sent.
 */

/** The order an operation of one `$id: ID!` variable answers. */
type OrderOf<Operation extends AdminOperation> =
  AdminData<Operation> extends { order?: infer Order } ? NonNullable<Order> : never;

/** The order an action is about, or the outcome to record when Shopify did not answer with it. */
export async function readActionOrder<Operation extends AdminOperation>(
  context: ActionContext,
  query: Operation,
  orderId: string,
): Promise<{ order: OrderOf<Operation> } | { outcome: ActionOutcome }> {
  const variables = { id: shopifyGid("Order", orderId) } as AdminVariables<Operation>;
  const read = await callShopify(context.graphql, { query, variables }, "plan_actions");
  if (read.kind !== "ok") return { outcome: failureOutcome(read) };
  const order = (read.data as { order?: OrderOf<Operation> | null }).order;
  if (!order) return { outcome: { kind: "dead", detail: `Order ${orderId} is not in Shopify` } };
  return { order };
}

/** A line item's numeric ID, or its GID when it has none. */
export function lineIdOf(gid: string): string {
  return numericIdOf(gid, "LineItem") ?? gid;
}

/** An order line as the plan rules read it: its variant, and the product it protects if a plan. */
export function orderLineRefOf(line: {
  id: string;
  variant?: { id: string } | null;
  customAttributes: readonly { key: string; value?: string | null }[];
}): OrderLineRef {
  const property = line.customAttributes.find(
    (attribute) => attribute.key === PROTECTED_PRODUCT_REF_PROPERTY,
  );
  return {
    id: lineIdOf(line.id),
    variantRef: line.variant ? numericIdOf(line.variant.id, "ProductVariant") : null,
    protectedRef: property ? (property.value ?? "").trim() : null,
  };
}

/**
 * Records `request` on the row (renewing the worker's claim), then sends the mutation: null when
 * the row is no longer this worker's, and then nothing is sent.
 */
export async function recordAndSend<Operation extends AdminOperation>(
  context: ActionContext,
  request: unknown,
  call: { query: Operation; variables: AdminVariables<Operation> },
): Promise<ShopifyAnswer<AdminData<Operation>> | null> {
  if (!(await context.beforeMutation(JSON.stringify(request)))) return null;
  return callShopify(context.graphql, call, "plan_actions");
}
