import type { AppPrismaClient } from "../db/client.server";

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
}

type Transaction = Parameters<Parameters<AppPrismaClient["$transaction"]>[0]>[0];

/**
 * Records a delivery once. Returns false when this shop already received that delivery
 * (Shopify delivers at least once), so the caller does its work exactly once.
 */
export async function recordWebhookReceipt(
  db: AppPrismaClient | Transaction,
  input: ReceiptInput,
): Promise<boolean> {
  const duplicate = await db.webhookReceipt.findFirst({
    where: {
      shop: input.shop,
      OR: [
        { webhookId: input.webhookId },
        ...(input.eventId ? [{ eventId: input.eventId, topic: input.topic }] : []),
      ],
    },
    select: { id: true },
  });
  if (duplicate) return false;
  await db.webhookReceipt.create({
    data: {
      shop: input.shop,
      topic: input.topic,
      webhookId: input.webhookId,
      eventId: input.eventId ?? null,
      apiVersion: input.apiVersion ?? null,
      orderId: input.orderId ?? null,
      status: input.status,
      detail: input.detail ?? null,
    },
  });
  return true;
}
