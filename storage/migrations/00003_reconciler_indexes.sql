-- +goose Up
-- Partial indexes for what the reconciler scans on every tick: postbacks
-- whose next attempt is due, and charges whose issuance was interrupted.
CREATE INDEX postbacks_pending_due_idx ON postbacks (next_attempt_at) WHERE status = 'PENDING';
CREATE INDEX charges_unissued_idx ON charges (created_at) WHERE status = 'PENDING' AND pix_id IS NULL;

-- +goose Down
DROP INDEX charges_unissued_idx;
DROP INDEX postbacks_pending_due_idx;
