-- The order's customer for the Order status page's customer match (issue 19, decision 034).
ALTER TABLE "OrderSummary" ADD COLUMN "customerId" TEXT;
