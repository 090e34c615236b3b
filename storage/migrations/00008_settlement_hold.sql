-- +goose Up
-- The cash-in settlement hold. Each integrator has a hold (zero by default:
-- the net of a paid charge is available at once). Under a hold, a paid
-- charge credits its net to the integrator's pending account, and once
-- available_at has passed the worker moves what the charge still holds to
-- available, in one posting per charge.
ALTER TABLE integrators ADD COLUMN cashin_hold interval NOT NULL DEFAULT interval '0'
    CHECK (cashin_hold >= interval '0' AND cashin_hold <= interval '90 days');

-- available_at: when the charge's net becomes available (paid_at + the hold
-- at the time of payment); fixed when the charge is paid.
-- held_amount: the part of the net still in pending (refunds of a held
-- charge take from it first).
-- released_at: when the net reached available (at payment when there was no
-- hold); a held charge is released once, and never holds money again after.
-- release_retry_at: a release that failed is left alone until then, so a
-- broken record never holds up the others.
ALTER TABLE charges
    ADD COLUMN available_at     timestamptz,
    ADD COLUMN held_amount      bigint NOT NULL DEFAULT 0 CHECK (held_amount >= 0 AND held_amount <= amount - fee),
    ADD COLUMN released_at      timestamptz,
    ADD COLUMN release_retry_at timestamptz,
    ADD CONSTRAINT charges_released_holds_nothing CHECK (released_at IS NULL OR held_amount = 0);

-- Charges paid before the hold existed were credited to available at once.
UPDATE charges SET available_at = paid_at, released_at = paid_at WHERE paid_at IS NOT NULL;

-- What the release step scans on every tick: charges still holding money,
-- by when their hold ends.
CREATE INDEX charges_release_due_idx ON charges (available_at) WHERE held_amount > 0;

-- The part of a refund's reservation taken from the pending balance (the
-- refunded charge's held net); the rest came from available.
ALTER TABLE refunds ADD COLUMN from_pending bigint NOT NULL DEFAULT 0
    CHECK (from_pending >= 0 AND from_pending <= amount + fee);

-- +goose Down
ALTER TABLE refunds DROP COLUMN from_pending;
DROP INDEX charges_release_due_idx;
ALTER TABLE charges
    DROP CONSTRAINT charges_released_holds_nothing,
    DROP COLUMN release_retry_at,
    DROP COLUMN released_at,
    DROP COLUMN held_amount,
    DROP COLUMN available_at;
ALTER TABLE integrators DROP COLUMN cashin_hold;
