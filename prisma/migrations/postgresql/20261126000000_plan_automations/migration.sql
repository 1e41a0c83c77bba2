-- Plans follow their products (issue 16): each automation can be switched off, and the merchant
-- can run or retry an action from the admin.
-- AlterTable
ALTER TABLE "ShopConnection" ADD COLUMN     "autoEditPlans" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "autoFulfilPlans" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "ShopifyAction" ADD COLUMN     "fulfillmentId" TEXT,
ADD COLUMN     "requestedBy" TEXT,
ADD COLUMN     "requestedAt" TIMESTAMP(3);
