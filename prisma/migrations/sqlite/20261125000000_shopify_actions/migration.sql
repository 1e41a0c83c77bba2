-- What the app does in Shopify for the merchant (decision 022): the plan refund queue.
CREATE TABLE "ShopifyAction" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "shop" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "triggerId" TEXT NOT NULL,
    "planLineId" TEXT NOT NULL,
    "triggerLines" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "firstFailedAt" DATETIME,
    "lastAttemptAt" DATETIME,
    "lastError" TEXT,
    "detail" TEXT,
    "request" TEXT,
    "refundId" TEXT,
    "quantity" INTEGER,
    "amount" TEXT,
    "currency" TEXT,
    "sourceReceiptId" TEXT,
    "claimedBy" TEXT,
    "leaseExpiresAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completedAt" DATETIME,
    "updatedAt" DATETIME NOT NULL
);

CREATE UNIQUE INDEX "ShopifyAction_shop_kind_triggerId_planLineId_key" ON "ShopifyAction"("shop", "kind", "triggerId", "planLineId");

CREATE INDEX "ShopifyAction_status_nextAttemptAt_idx" ON "ShopifyAction"("status", "nextAttemptAt");

CREATE INDEX "ShopifyAction_shop_orderId_id_idx" ON "ShopifyAction"("shop", "orderId", "id");
