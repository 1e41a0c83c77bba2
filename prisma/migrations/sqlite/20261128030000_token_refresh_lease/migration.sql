-- One refresh of a shop's expiring offline token at a time, across processes (issue 27, decision
-- 042): the lease a refresh takes before it calls Shopify's token endpoint, deleted after.
CREATE TABLE "TokenRefreshLease" (
    "shop" TEXT NOT NULL PRIMARY KEY,
    "owner" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL
);
