-- The buyer's self-service checkout link after the purchase (issue 19, decision 034): on by default.
-- AlterTable
ALTER TABLE "ShopConnection" ADD COLUMN     "selfServiceLink" BOOLEAN NOT NULL DEFAULT true;
