-- +goose Up
-- The reconciler consults PENDING charges on a backing-off schedule from
-- soon after creation, so a paid charge is credited even when every
-- notification for it is lost. next_check_at is when a charge is next
-- consulted; NULL until its first check, which is due a fixed delay after
-- created_at. Each query below reads one partial index of PENDING charges
-- only, however many charges are PAID or EXPIRED.
ALTER TABLE charges ADD COLUMN next_check_at timestamptz;
CREATE INDEX charges_first_check_idx ON charges (created_at) WHERE status = 'PENDING' AND next_check_at IS NULL;
CREATE INDEX charges_next_check_idx ON charges (next_check_at) WHERE status = 'PENDING';
-- Charges past their expiry are found by their scheduled checks now.
DROP INDEX charges_pending_expiry_idx;

-- +goose Down
CREATE INDEX charges_pending_expiry_idx ON charges (expires_at) WHERE status = 'PENDING';
DROP INDEX charges_next_check_idx;
DROP INDEX charges_first_check_idx;
ALTER TABLE charges DROP COLUMN next_check_at;
