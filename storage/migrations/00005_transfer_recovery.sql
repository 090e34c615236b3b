-- +goose Up
-- A withdrawal or refund the provider no longer knows is sent again with
-- the same external_id (the provider deduplicates on it); resends counts
-- those sends. After a bound it is flagged for an operator (flagged_at,
-- flag_reason) and the reconciler stops asking about it; it stays
-- PROCESSING, its money reserved, until an operator settles or fails it.
ALTER TABLE withdrawals
    ADD COLUMN resends     integer NOT NULL DEFAULT 0,
    ADD COLUMN flagged_at  timestamptz,
    ADD COLUMN flag_reason text;
ALTER TABLE refunds
    ADD COLUMN resends     integer NOT NULL DEFAULT 0,
    ADD COLUMN flagged_at  timestamptz,
    ADD COLUMN flag_reason text;
CREATE INDEX withdrawals_flagged_idx ON withdrawals (flagged_at) WHERE status = 'PROCESSING' AND flagged_at IS NOT NULL;
CREATE INDEX refunds_flagged_idx ON refunds (flagged_at) WHERE status = 'PROCESSING' AND flagged_at IS NOT NULL;

-- +goose Down
DROP INDEX refunds_flagged_idx;
DROP INDEX withdrawals_flagged_idx;
ALTER TABLE refunds DROP COLUMN flag_reason, DROP COLUMN flagged_at, DROP COLUMN resends;
ALTER TABLE withdrawals DROP COLUMN flag_reason, DROP COLUMN flagged_at, DROP COLUMN resends;
