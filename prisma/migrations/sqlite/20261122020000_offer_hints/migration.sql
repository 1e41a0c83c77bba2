-- The offer block's layout hint (decision 014): per product, the variants known to have no plans,
-- and what of it Shopify's product metafield holds.
CREATE TABLE "ProductOfferHint" (
    "shop" TEXT NOT NULL,
    "productId" TEXT NOT NULL,
    "withoutPlans" TEXT NOT NULL,
    "published" TEXT,
    "publishedAt" DATETIME,
    "lastError" TEXT,
    "updatedAt" DATETIME NOT NULL,
    PRIMARY KEY ("shop", "productId")
);
