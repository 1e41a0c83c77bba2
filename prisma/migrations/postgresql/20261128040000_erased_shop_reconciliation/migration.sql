-- Reconciliation that shop/redact left behind before it erased it too (issue 27, decision 045):
-- a shop without a connection was erased, so its watermark, deferred orders and runs go.
DELETE FROM "ReconcileState" WHERE "shop" NOT IN (SELECT "shop" FROM "ShopConnection");
DELETE FROM "ReconcileRun" WHERE "shop" NOT IN (SELECT "shop" FROM "ShopConnection");
