-- Retention (issue 28, decision 049): the deletion pass finds settled events and receipts by
-- status and age across all shops, a batch at a time, without scanning the busy tables.
CREATE INDEX "OutboxEvent_status_updatedAt_idx" ON "OutboxEvent"("status", "updatedAt");
CREATE INDEX "WebhookReceipt_status_receivedAt_idx" ON "WebhookReceipt"("status", "receivedAt");
