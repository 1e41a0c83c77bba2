-- Plans follow their products (issue 16): each automation can be switched off, and the merchant
-- can run or retry an action from the admin.
ALTER TABLE "ShopConnection" ADD COLUMN "autoEditPlans" BOOLEAN NOT NULL DEFAULT true;

ALTER TABLE "ShopConnection" ADD COLUMN "autoFulfilPlans" BOOLEAN NOT NULL DEFAULT false;

ALTER TABLE "ShopifyAction" ADD COLUMN "fulfillmentId" TEXT;

ALTER TABLE "ShopifyAction" ADD COLUMN "requestedBy" TEXT;

ALTER TABLE "ShopifyAction" ADD COLUMN "requestedAt" DATETIME;
