-- The outbox gets an ordered integer id, a dedupe key and claim columns. No release wrote
-- to "OutboxEvent" before this migration, so the table is recreated rather than copied.
DROP TABLE "OutboxEvent";

CREATE TABLE "OutboxEvent" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "shop" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "eventType" TEXT NOT NULL,
    "dedupeKey" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "firstFailedAt" DATETIME,
    "lastAttemptAt" DATETIME,
    "lastError" TEXT,
    "lastResponse" TEXT,
    "serviceEventId" TEXT,
    "sourceReceiptId" TEXT,
    "claimedBy" TEXT,
    "leaseExpiresAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deliveredAt" DATETIME,
    "updatedAt" DATETIME NOT NULL
);

CREATE UNIQUE INDEX "OutboxEvent_shop_dedupeKey_key" ON "OutboxEvent"("shop", "dedupeKey");

CREATE INDEX "OutboxEvent_status_nextAttemptAt_idx" ON "OutboxEvent"("status", "nextAttemptAt");

CREATE INDEX "OutboxEvent_shop_orderId_id_idx" ON "OutboxEvent"("shop", "orderId", "id");

CREATE INDEX "OutboxEvent_shop_status_id_idx" ON "OutboxEvent"("shop", "status", "id");

CREATE INDEX "OutboxEvent_shop_createdAt_idx" ON "OutboxEvent"("shop", "createdAt");

-- Unmappable payloads are kept; a delivery is unique per event as well as per delivery ID.
ALTER TABLE "WebhookReceipt" ADD COLUMN "payload" TEXT;

CREATE UNIQUE INDEX "WebhookReceipt_shop_topic_eventId_key" ON "WebhookReceipt"("shop", "topic", "eventId");
