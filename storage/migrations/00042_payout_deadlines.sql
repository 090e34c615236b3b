-- +goose NO TRANSACTION
-- Payout deadlines (docs/operations.md, "Payout deadlines (betting
-- operators)"): an integrator's payout_deadline (NULL: none) gives each of
-- its new withdrawals a due_at, its creation plus the deadline, unless the
-- request gives its own. due_near_at is when the withdrawal counts as near
-- its deadline (storage.DeadlineNearAt); deadline_notices counts the
-- deadline postbacks written for it: 0 none, 1 DEADLINE_NEAR, 2 LATE, so
-- each is written once. Nullable columns without a default, and one with a
-- constant default: adding them rewrites no row.
--
-- Each index holds only withdrawals with a deadline, which are none when
-- it is built; built concurrently all the same, so that a large table
-- keeps taking writes meanwhile. The reconciler's (and the gauges') index
-- states its key is not null (see 00028): a guarded statement on one
-- withdrawal cannot use it.

-- +goose Up
ALTER TABLE integrators ADD COLUMN IF NOT EXISTS payout_deadline interval;
ALTER TABLE withdrawals ADD COLUMN IF NOT EXISTS due_at timestamptz;
ALTER TABLE withdrawals ADD COLUMN IF NOT EXISTS due_near_at timestamptz;
ALTER TABLE withdrawals ADD COLUMN IF NOT EXISTS deadline_notices smallint NOT NULL DEFAULT 0;
CREATE INDEX CONCURRENTLY IF NOT EXISTS withdrawals_deadline_open_idx ON withdrawals (due_near_at)
    WHERE status = 'PROCESSING' AND due_near_at IS NOT NULL;
CREATE INDEX CONCURRENTLY IF NOT EXISTS withdrawals_due_idx ON withdrawals (due_at) WHERE due_at IS NOT NULL;
ALTER TABLE postbacks DROP CONSTRAINT postbacks_resource_type_check;
ALTER TABLE postbacks ADD CONSTRAINT postbacks_resource_type_check
    CHECK (resource_type IN ('charge', 'withdrawal', 'refund', 'med_return', 'infraction', 'recurrence',
                             'recurrence_cycle', 'recurrence_attempt', 'withdrawal_batch', 'payout_deadline')) NOT VALID;

-- +goose Down
DELETE FROM postbacks WHERE resource_type = 'payout_deadline';
ALTER TABLE postbacks DROP CONSTRAINT postbacks_resource_type_check;
ALTER TABLE postbacks ADD CONSTRAINT postbacks_resource_type_check
    CHECK (resource_type IN ('charge', 'withdrawal', 'refund', 'med_return', 'infraction', 'recurrence',
                             'recurrence_cycle', 'recurrence_attempt', 'withdrawal_batch')) NOT VALID;
DROP INDEX CONCURRENTLY IF EXISTS withdrawals_due_idx;
DROP INDEX CONCURRENTLY IF EXISTS withdrawals_deadline_open_idx;
ALTER TABLE withdrawals DROP COLUMN IF EXISTS deadline_notices;
ALTER TABLE withdrawals DROP COLUMN IF EXISTS due_near_at;
ALTER TABLE withdrawals DROP COLUMN IF EXISTS due_at;
ALTER TABLE integrators DROP COLUMN IF EXISTS payout_deadline;
