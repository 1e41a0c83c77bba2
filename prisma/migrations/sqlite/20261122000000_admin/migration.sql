-- Admin pages: shop settings, key verification, go-live and storefront detection; protection
-- items; per-order figures; variants offered plans.
ALTER TABLE "ShopConnection" ADD COLUMN "autoRefundPlans" BOOLEAN NOT NULL DEFAULT true;
ALTER TABLE "ShopConnection" ADD COLUMN "offerOptions" TEXT;
ALTER TABLE "ShopConnection" ADD COLUMN "sandboxKeyVerifiedAt" DATETIME;
ALTER TABLE "ShopConnection" ADD COLUMN "liveKeyVerifiedAt" DATETIME;
ALTER TABLE "ShopConnection" ADD COLUMN "liveSince" DATETIME;
ALTER TABLE "ShopConnection" ADD COLUMN "embedSeenAt" DATETIME;
ALTER TABLE "ShopConnection" ADD COLUMN "offerBlockSeenAt" DATETIME;

CREATE TABLE "ProtectionItem" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "strategy" TEXT NOT NULL,
    "productId" TEXT NOT NULL,
    "variantId" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "priceAmount" INTEGER,
    "currency" TEXT,
    "category" TEXT,
    "createdByApp" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
CREATE UNIQUE INDEX "ProtectionItem_shop_variantId_key" ON "ProtectionItem"("shop", "variantId");
CREATE INDEX "ProtectionItem_shop_productId_idx" ON "ProtectionItem"("shop", "productId");

CREATE TABLE "OrderSummary" (
    "shop" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "placedAt" DATETIME NOT NULL,
    "currency" TEXT NOT NULL,
    "lineCount" INTEGER NOT NULL,
    "planLineCount" INTEGER NOT NULL,
    "planRevenue" INTEGER NOT NULL,
    "variantIds" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    PRIMARY KEY ("shop", "orderId")
);
CREATE INDEX "OrderSummary_shop_placedAt_idx" ON "OrderSummary"("shop", "placedAt");

CREATE TABLE "ProtectableVariant" (
    "shop" TEXT NOT NULL,
    "variantId" TEXT NOT NULL,
    "lastOfferedAt" DATETIME NOT NULL,
    PRIMARY KEY ("shop", "variantId")
);
