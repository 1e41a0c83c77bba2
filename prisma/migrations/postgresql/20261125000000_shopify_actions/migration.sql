-- What the app does in Shopify for the merchant (decision 022): the plan refund queue.
CREATE TABLE "ShopifyAction" (
    "id" SERIAL NOT NULL,
    "shop" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "triggerId" TEXT NOT NULL,
    "planLineId" TEXT NOT NULL,
    "triggerLines" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "firstFailedAt" TIMESTAMP(3),
    "lastAttemptAt" TIMESTAMP(3),
    "lastError" TEXT,
    "detail" TEXT,
    "request" TEXT,
    "refundId" TEXT,
    "quantity" INTEGER,
    "amount" TEXT,
    "currency" TEXT,
    "sourceReceiptId" TEXT,
    "claimedBy" TEXT,
    "leaseExpiresAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completedAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ShopifyAction_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ShopifyAction_shop_kind_triggerId_planLineId_key" ON "ShopifyAction"("shop", "kind", "triggerId", "planLineId");

-- CreateIndex
CREATE INDEX "ShopifyAction_status_nextAttemptAt_idx" ON "ShopifyAction"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "ShopifyAction_shop_orderId_id_idx" ON "ShopifyAction"("shop", "orderId", "id");
