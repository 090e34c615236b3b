-- +goose Up
-- The W3C traceparent of the span that wrote a payment (the request that
-- created it, or the task that did), so that its settlement, which the
-- provider's notification starts in a trace of its own, joins the
-- payment's trace. NULL when tracing was off. A nullable column without a
-- default: adding it rewrites no row.
ALTER TABLE withdrawals ADD COLUMN trace_parent text;
ALTER TABLE refunds ADD COLUMN trace_parent text;
ALTER TABLE med_returns ADD COLUMN trace_parent text;
ALTER TABLE charges ADD COLUMN trace_parent text;

-- +goose Down
ALTER TABLE charges DROP COLUMN trace_parent;
ALTER TABLE med_returns DROP COLUMN trace_parent;
ALTER TABLE refunds DROP COLUMN trace_parent;
ALTER TABLE withdrawals DROP COLUMN trace_parent;
