-- Exactly once under faults (decision 018): per-environment key pauses, the time delivery last
-- resumed, a log of every send, and money in 64-bit minor units.
ALTER TABLE "ShopConnection" ADD COLUMN "sandboxKeyRejectedAt" DATETIME;
ALTER TABLE "ShopConnection" ADD COLUMN "liveKeyRejectedAt" DATETIME;
ALTER TABLE "ShopConnection" ADD COLUMN "deliveryResumedAt" DATETIME;
-- A shop paused before this migration stays paused, for the environment it worked in.
UPDATE "ShopConnection" SET "liveKeyRejectedAt" = "updatedAt"
  WHERE "status" = 'key_rejected' AND "environment" = 'production';
UPDATE "ShopConnection" SET "sandboxKeyRejectedAt" = "updatedAt"
  WHERE "status" = 'key_rejected' AND "environment" <> 'production';

CREATE TABLE "OutboxAttempt" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "eventId" INTEGER NOT NULL,
    "shop" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "environment" TEXT NOT NULL,
    "workerId" TEXT NOT NULL,
    "idempotencyKey" TEXT NOT NULL,
    "startedAt" DATETIME NOT NULL,
    "finishedAt" DATETIME NOT NULL,
    "outcome" TEXT NOT NULL,
    "httpStatus" INTEGER,
    "detail" TEXT
);
CREATE INDEX "OutboxAttempt_eventId_attempt_idx" ON "OutboxAttempt"("eventId", "attempt");
CREATE INDEX "OutboxAttempt_shop_startedAt_idx" ON "OutboxAttempt"("shop", "startedAt");

-- SQLite integers are 64-bit already; the tables are rebuilt so that the declared type (BIGINT)
-- matches the schema and the client reads BigInt.
CREATE TABLE "new_ProtectionItem" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "strategy" TEXT NOT NULL,
    "productId" TEXT NOT NULL,
    "variantId" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "priceAmount" BIGINT,
    "currency" TEXT,
    "category" TEXT,
    "createdByApp" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_ProtectionItem" SELECT "id", "shop", "strategy", "productId", "variantId", "title",
  "priceAmount", "currency", "category", "createdByApp", "createdAt", "updatedAt" FROM "ProtectionItem";
DROP TABLE "ProtectionItem";
ALTER TABLE "new_ProtectionItem" RENAME TO "ProtectionItem";
CREATE UNIQUE INDEX "ProtectionItem_shop_variantId_key" ON "ProtectionItem"("shop", "variantId");
CREATE INDEX "ProtectionItem_shop_productId_idx" ON "ProtectionItem"("shop", "productId");

CREATE TABLE "new_OrderSummary" (
    "shop" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "placedAt" DATETIME NOT NULL,
    "currency" TEXT NOT NULL,
    "lineCount" INTEGER NOT NULL,
    "planLineCount" INTEGER NOT NULL,
    "planRevenue" BIGINT NOT NULL,
    "variantIds" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    PRIMARY KEY ("shop", "orderId")
);
INSERT INTO "new_OrderSummary" SELECT "shop", "orderId", "environment", "placedAt", "currency",
  "lineCount", "planLineCount", "planRevenue", "variantIds", "createdAt" FROM "OrderSummary";
DROP TABLE "OrderSummary";
ALTER TABLE "new_OrderSummary" RENAME TO "OrderSummary";
CREATE INDEX "OrderSummary_shop_placedAt_idx" ON "OrderSummary"("shop", "placedAt");
CREATE INDEX "OrderSummary_dashboard_idx" ON "OrderSummary"("shop", "environment", "placedAt", "planLineCount", "currency", "planRevenue");
