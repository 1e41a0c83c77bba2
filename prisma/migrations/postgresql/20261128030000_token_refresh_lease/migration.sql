-- One refresh of a shop's expiring offline token at a time, across processes (issue 27, decision
-- 042): the lease a refresh takes before it calls Shopify's token endpoint, deleted after.
CREATE TABLE "TokenRefreshLease" (
    "shop" TEXT NOT NULL,
    "owner" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "TokenRefreshLease_pkey" PRIMARY KEY ("shop")
);
