import type { AppPrismaClient, AppTransaction } from "../db/client.server";

export type ReceiptStatus = "processed" | "ignored" | "unprocessable";

export interface ReceiptInput {
  shop: string;
  topic: string;
  webhookId: string;
  eventId?: string | null;
  apiVersion?: string | null;
  orderId?: string | null;
  status: ReceiptStatus;
  detail?: string | null;
  /** The raw body; kept only for a delivery that could not be mapped. */
  payload?: string | null;
}

/** The identifying headers of a verified delivery, as every webhook handler has them. */
export interface DeliveryHeaders {
  shop: string;
  topic: string;
  webhookId: string;
  eventId?: string | null;
  apiVersion?: string | null;
}

/** The receipt of a delivery: its headers plus what became of it. */
export function receiptFor(
  delivery: DeliveryHeaders,
  outcome: Pick<ReceiptInput, "status" | "detail" | "orderId" | "payload">,
): ReceiptInput {
  return {
    shop: delivery.shop,
    topic: delivery.topic,
    webhookId: delivery.webhookId,
    eventId: delivery.eventId,
    apiVersion: delivery.apiVersion,
    ...outcome,
  };
}

/** The row of a receipt, with absent fields stored as NULL. */
export function receiptRow(input: ReceiptInput) {
  return {
    shop: input.shop,
    topic: input.topic,
    webhookId: input.webhookId,
    eventId: input.eventId ?? null,
    apiVersion: input.apiVersion ?? null,
    orderId: input.orderId ?? null,
    status: input.status,
    detail: input.detail ?? null,
    payload: input.payload ?? null,
  };
}

/** Prisma's "unique constraint failed" (P2002), whichever database and adapter raised it. */
export function isUniqueViolation(error: unknown): boolean {
  return (
    typeof error === "object" &&
    error !== null &&
    "code" in error &&
    (error as { code?: unknown }).code === "P2002"
  );
}

/**
 * A receipt for the same delivery (X-Shopify-Webhook-Id) or the same event of the same topic
 * (X-Shopify-Event-Id) in this shop. Both are unique indexes too, so a race still loses.
 */
export function findDuplicateReceipt(
  db: AppPrismaClient | AppTransaction,
  delivery: DeliveryHeaders,
) {
  return db.webhookReceipt.findFirst({
    where: {
      shop: delivery.shop,
      OR: [
        { webhookId: delivery.webhookId },
        ...(delivery.eventId ? [{ eventId: delivery.eventId, topic: delivery.topic }] : []),
      ],
    },
    select: { id: true },
  });
}

/**
 * Records a delivery once. Returns false when this shop already received that delivery
 * (Shopify delivers at least once), so the caller does its work exactly once.
 */
export async function recordWebhookReceipt(
  db: AppPrismaClient | AppTransaction,
  input: ReceiptInput,
): Promise<boolean> {
  if (await findDuplicateReceipt(db, input)) return false;
  try {
    await db.webhookReceipt.create({ data: receiptRow(input) });
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}
