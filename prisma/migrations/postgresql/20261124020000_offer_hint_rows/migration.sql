-- The offer block's layout hint as rows (decision 014, amended 2026-11-24): one row per shop,
-- product and variant, written by an upsert, and the product's publish state in its own table.
CREATE TABLE "ProductOfferHintPublish" (
    "shop" TEXT NOT NULL,
    "productId" TEXT NOT NULL,
    "published" TEXT,
    "publishedAt" TIMESTAMP(3),
    "lastError" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ProductOfferHintPublish_pkey" PRIMARY KEY ("shop", "productId")
);
-- A product never published and never refused has nothing to say here.
INSERT INTO "ProductOfferHintPublish" ("shop", "productId", "published", "publishedAt", "lastError", "updatedAt")
SELECT "shop", "productId", "published", "publishedAt", "lastError", "updatedAt"
FROM "ProductOfferHint"
WHERE "published" IS NOT NULL OR "lastError" IS NOT NULL;

CREATE TABLE "new_ProductOfferHint" (
    "shop" TEXT NOT NULL,
    "productId" TEXT NOT NULL,
    "variantId" TEXT NOT NULL,
    "withoutPlans" BOOLEAN NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "new_ProductOfferHint_pkey" PRIMARY KEY ("shop", "productId", "variantId")
);
-- Each variant of the stored JSON array becomes a row; the array held only variants without plans.
INSERT INTO "new_ProductOfferHint" ("shop", "productId", "variantId", "withoutPlans", "updatedAt")
SELECT "hint"."shop", "hint"."productId", "variant"."id", true, "hint"."updatedAt"
FROM "ProductOfferHint" AS "hint"
CROSS JOIN LATERAL json_array_elements_text("hint"."withoutPlans"::json) AS "variant"("id")
ON CONFLICT DO NOTHING;
DROP TABLE "ProductOfferHint";
ALTER TABLE "new_ProductOfferHint" RENAME TO "ProductOfferHint";
ALTER TABLE "ProductOfferHint" RENAME CONSTRAINT "new_ProductOfferHint_pkey" TO "ProductOfferHint_pkey";
