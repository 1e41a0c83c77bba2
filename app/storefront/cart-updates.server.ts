import prisma from "../db.server";
import { getEnv } from "../env.server";
import type { Logger } from "../logger.server";
import { getShopConnection } from "../models/ShopConnection.server";
import { noteEmbedSeen } from "../models/StorefrontActivity.server";
import { describeResult } from "../protection/results";
import {
  pauseShopWithUnreadableSecret,
  protectionClientForShop,
} from "../services/protection.server";
import { toCartUpdateRequest, type CartUpdateBody } from "./cart";
import {
  reconcileServiceActions,
  requiredCartActions,
  type CartLineAction,
  type ReconcileNote,
} from "./cart-rules";

/** The body of the answer to POST /apps/svc/cart_updates. */
export type CartUpdateAnswer = { actions: CartLineAction[]; source: "service" | "local" };

/**
 * Reports the cart to the service and answers the actions the storefront must perform. The
 * service's actions are checked against the cart and the local rules (reconcileServiceActions);
 * when the shop is not connected, the service fails or the app's database fails, the local
 * rules alone answer (the failure is logged).
 */
export async function reportCartUpdate(
  shop: string,
  body: CartUpdateBody,
  log: Logger,
): Promise<CartUpdateAnswer> {
  const local = (): CartUpdateAnswer => ({
    actions: requiredCartActions(body.cart.lines),
    source: "local",
  });
  try {
    return await reportToService(shop, body, log, local);
  } catch (error) {
    log.error(
      { err: error },
      `Failed to report a cart update for ${shop}, answering the local cart rules`,
    );
    return local();
  }
}

async function reportToService(
  shop: string,
  body: CartUpdateBody,
  log: Logger,
  local: () => CartUpdateAnswer,
): Promise<CartUpdateAnswer> {
  noteEmbedSeen(prisma, shop).catch((error: unknown) =>
    log.error({ err: error }, "Failed to note the cart rules embed's activity"),
  );
  const connection = await getShopConnection(prisma, shop);
  if (!connection || connection.status !== "connected") {
    log.debug(
      { status: connection?.status ?? "none" },
      `Cart rules applied locally for ${shop}: the shop is not connected`,
    );
    return local();
  }
  const built = protectionClientForShop(connection, undefined, {
    timeoutMs: getEnv().SVC_STOREFRONT_TIMEOUT_MS,
  });
  if (built.status !== "ready") {
    log.info(
      { environment: built.environment },
      `Cart rules applied locally for ${shop}: ${built.message}`,
    );
    if (built.status === "unreadable") {
      await pauseShopWithUnreadableSecret(prisma, shop, built, log);
    }
    return local();
  }

  const request = toCartUpdateRequest(body);
  const result = await built.client.reportCartUpdate(request);
  if (result.kind !== "success") {
    log.warn(
      { environment: built.environment },
      `Failed to report a cart update for ${shop}, answering the local cart rules: ${describeResult(result)}`,
    );
    return local();
  }
  if (result.data.cart_id !== request.cart_id) {
    log.warn(
      { environment: built.environment },
      `The service answered a cart update for ${shop} about another cart; answering the local cart rules`,
    );
    return local();
  }

  const { actions, notes } = reconcileServiceActions(body.cart.lines, result.data.actions ?? []);
  for (const note of notes) logNote(log, shop, note);
  return { actions, source: "service" };
}

function logNote(log: Logger, shop: string, note: ReconcileNote) {
  const fields = { lineItemKey: note.lineItemKey };
  switch (note.kind) {
    case "unknown_line":
      log.warn(
        fields,
        `Dropped a service action for ${shop}: line ${note.lineItemKey} is not in the cart`,
      );
      return;
    case "negative_quantity":
      log.warn(
        fields,
        `Dropped a service action for ${shop}: quantity ${note.quantity} for line ${note.lineItemKey}`,
      );
      return;
    case "repeated_line":
      log.warn(
        fields,
        `The service named line ${note.lineItemKey} of ${shop} twice; the last action (quantity ${note.quantity}) is kept`,
      );
      return;
    case "plan_line_disagreement":
      log.warn(
        fields,
        `The service set plan line ${note.lineItemKey} of ${shop} to ${note.service}; the cart rules require ${note.local}, which is answered`,
      );
      return;
    case "plan_line_action_missing":
      log.warn(
        fields,
        `The service left plan line ${note.lineItemKey} of ${shop} at ${note.current}; the cart rules require ${note.local}, which is answered`,
      );
      return;
  }
}
