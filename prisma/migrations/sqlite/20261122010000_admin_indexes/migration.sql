-- The admin pages (loader timings in docs/performance.md): the home's figures (events by day
-- and status, orders by day, per environment) from the indexes alone; the event log's newest
-- first pages of one shop, and its webhooks by status, without sorting the shop's rows.
CREATE INDEX "OutboxEvent_dashboard_idx" ON "OutboxEvent"("shop", "environment", "createdAt", "status");
CREATE INDEX "OrderSummary_dashboard_idx" ON "OrderSummary"("shop", "environment", "placedAt", "planLineCount", "currency", "planRevenue");
CREATE INDEX "OutboxEvent_shop_id_idx" ON "OutboxEvent"("shop", "id");
CREATE INDEX "WebhookReceipt_shop_status_receivedAt_idx" ON "WebhookReceipt"("shop", "status", "receivedAt");
