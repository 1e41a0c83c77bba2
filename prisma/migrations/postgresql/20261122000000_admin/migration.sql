-- Admin pages: shop settings, key verification, go-live and storefront detection; protection
-- items; per-order figures; variants offered plans.
ALTER TABLE "ShopConnection" ADD COLUMN "autoRefundPlans" BOOLEAN NOT NULL DEFAULT true;
ALTER TABLE "ShopConnection" ADD COLUMN "offerOptions" TEXT;
ALTER TABLE "ShopConnection" ADD COLUMN "sandboxKeyVerifiedAt" TIMESTAMP(3);
ALTER TABLE "ShopConnection" ADD COLUMN "liveKeyVerifiedAt" TIMESTAMP(3);
ALTER TABLE "ShopConnection" ADD COLUMN "liveSince" TIMESTAMP(3);
ALTER TABLE "ShopConnection" ADD COLUMN "embedSeenAt" TIMESTAMP(3);
ALTER TABLE "ShopConnection" ADD COLUMN "offerBlockSeenAt" TIMESTAMP(3);

CREATE TABLE "ProtectionItem" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "strategy" TEXT NOT NULL,
    "productId" TEXT NOT NULL,
    "variantId" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "priceAmount" INTEGER,
    "currency" TEXT,
    "category" TEXT,
    "createdByApp" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ProtectionItem_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "ProtectionItem_shop_variantId_key" ON "ProtectionItem"("shop", "variantId");
CREATE INDEX "ProtectionItem_shop_productId_idx" ON "ProtectionItem"("shop", "productId");

CREATE TABLE "OrderSummary" (
    "shop" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "placedAt" TIMESTAMP(3) NOT NULL,
    "currency" TEXT NOT NULL,
    "lineCount" INTEGER NOT NULL,
    "planLineCount" INTEGER NOT NULL,
    "planRevenue" INTEGER NOT NULL,
    "variantIds" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OrderSummary_pkey" PRIMARY KEY ("shop", "orderId")
);
CREATE INDEX "OrderSummary_shop_placedAt_idx" ON "OrderSummary"("shop", "placedAt");

CREATE TABLE "ProtectableVariant" (
    "shop" TEXT NOT NULL,
    "variantId" TEXT NOT NULL,
    "lastOfferedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ProtectableVariant_pkey" PRIMARY KEY ("shop", "variantId")
);
