-- The outbox gets an ordered integer id, a dedupe key and claim columns. No release wrote
-- to "OutboxEvent" before this migration, so the table is recreated rather than copied.
DROP TABLE "OutboxEvent";

-- CreateTable
CREATE TABLE "OutboxEvent" (
    "id" SERIAL NOT NULL,
    "shop" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "eventType" TEXT NOT NULL,
    "dedupeKey" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "firstFailedAt" TIMESTAMP(3),
    "lastAttemptAt" TIMESTAMP(3),
    "lastError" TEXT,
    "lastResponse" TEXT,
    "serviceEventId" TEXT,
    "sourceReceiptId" TEXT,
    "claimedBy" TEXT,
    "leaseExpiresAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deliveredAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "OutboxEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "OutboxEvent_shop_dedupeKey_key" ON "OutboxEvent"("shop", "dedupeKey");

-- CreateIndex
CREATE INDEX "OutboxEvent_status_nextAttemptAt_idx" ON "OutboxEvent"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "OutboxEvent_shop_orderId_id_idx" ON "OutboxEvent"("shop", "orderId", "id");

-- CreateIndex
CREATE INDEX "OutboxEvent_shop_status_id_idx" ON "OutboxEvent"("shop", "status", "id");

-- CreateIndex
CREATE INDEX "OutboxEvent_shop_createdAt_idx" ON "OutboxEvent"("shop", "createdAt");

-- AlterTable
ALTER TABLE "WebhookReceipt" ADD COLUMN "payload" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "WebhookReceipt_shop_topic_eventId_key" ON "WebhookReceipt"("shop", "topic", "eventId");
