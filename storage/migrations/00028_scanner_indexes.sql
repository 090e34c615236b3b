-- +goose NO TRANSACTION
-- A reconciler's partial index (the records in flight, by age) must not be
-- one a single record's guarded statement can use.
--
-- A guarded statement names its record by id and guards its state
-- (WHERE id = $1 AND status = 'PROCESSING'). When an index's predicate is
-- that guard alone (ON withdrawals (updated_at) WHERE status =
-- 'PROCESSING'), Postgres may read the record through it, whole, the id a
-- mere filter, instead of through the primary key: it does whenever the
-- statistics were last gathered while few records were in flight (a quiet
-- moment), for the partial index then looks empty. Every send claim and
-- settlement then read every record in flight: under load 290 buffers a
-- claim instead of 6, and after a quiet night a backlog's every record.
--
-- The rule, from this migration on: such an index also states that its key
-- is not null. Its scan bounds the key (updated_at < ...), which implies
-- it; a guarded statement does not, so it can only use the primary key.
-- (For next_check_at and available_at, nullable, the condition also says
-- which records the index is for.)
--
-- A guard of a record not sent yet (pix_id IS NULL) is the same trap through
-- the pix_id keys, which held every NULL: after a quiet moment's statistics
-- (every record had its pix_id) a claim could read every unsent record
-- through the key. Each pix_id is now unique among the records that have
-- one, and the key holds only those.
--
-- Concurrently, so that a large table keeps taking writes while its index
-- is built: each index is built under a new name, the old one dropped,
-- the new one renamed. Rerunning after a failure part way is safe; a build
-- that failed leaves an INVALID index, which `\d table` shows (drop it and
-- rerun).

-- +goose Up
CREATE INDEX CONCURRENTLY IF NOT EXISTS withdrawals_processing_idx_new ON withdrawals (updated_at) WHERE status = 'PROCESSING' AND updated_at IS NOT NULL;
DROP INDEX CONCURRENTLY IF EXISTS withdrawals_processing_idx;
ALTER INDEX IF EXISTS withdrawals_processing_idx_new RENAME TO withdrawals_processing_idx;
CREATE INDEX CONCURRENTLY IF NOT EXISTS refunds_processing_idx_new ON refunds (updated_at) WHERE status = 'PROCESSING' AND updated_at IS NOT NULL;
DROP INDEX CONCURRENTLY IF EXISTS refunds_processing_idx;
ALTER INDEX IF EXISTS refunds_processing_idx_new RENAME TO refunds_processing_idx;
CREATE INDEX CONCURRENTLY IF NOT EXISTS med_returns_processing_idx_new ON med_returns (updated_at) WHERE status = 'PROCESSING' AND updated_at IS NOT NULL;
DROP INDEX CONCURRENTLY IF EXISTS med_returns_processing_idx;
ALTER INDEX IF EXISTS med_returns_processing_idx_new RENAME TO med_returns_processing_idx;
CREATE INDEX CONCURRENTLY IF NOT EXISTS charges_next_check_idx_new ON charges (next_check_at) WHERE status = 'PENDING' AND next_check_at IS NOT NULL;
DROP INDEX CONCURRENTLY IF EXISTS charges_next_check_idx;
ALTER INDEX IF EXISTS charges_next_check_idx_new RENAME TO charges_next_check_idx;
CREATE INDEX CONCURRENTLY IF NOT EXISTS charges_first_check_idx_new ON charges (created_at) WHERE status = 'PENDING' AND next_check_at IS NULL AND created_at IS NOT NULL;
DROP INDEX CONCURRENTLY IF EXISTS charges_first_check_idx;
ALTER INDEX IF EXISTS charges_first_check_idx_new RENAME TO charges_first_check_idx;
CREATE INDEX CONCURRENTLY IF NOT EXISTS charges_unissued_idx_new ON charges (created_at) WHERE status = 'PENDING' AND pix_id IS NULL AND created_at IS NOT NULL;
DROP INDEX CONCURRENTLY IF EXISTS charges_unissued_idx;
ALTER INDEX IF EXISTS charges_unissued_idx_new RENAME TO charges_unissued_idx;
CREATE INDEX CONCURRENTLY IF NOT EXISTS charges_release_due_idx_new ON charges (available_at) WHERE held_amount > 0 AND available_at IS NOT NULL;
DROP INDEX CONCURRENTLY IF EXISTS charges_release_due_idx;
ALTER INDEX IF EXISTS charges_release_due_idx_new RENAME TO charges_release_due_idx;
CREATE INDEX CONCURRENTLY IF NOT EXISTS postbacks_pending_due_idx_new ON postbacks (next_attempt_at) WHERE status = 'PENDING' AND next_attempt_at IS NOT NULL;
DROP INDEX CONCURRENTLY IF EXISTS postbacks_pending_due_idx;
ALTER INDEX IF EXISTS postbacks_pending_due_idx_new RENAME TO postbacks_pending_due_idx;
CREATE INDEX CONCURRENTLY IF NOT EXISTS infractions_open_idx_new ON infractions (updated_at) WHERE status = 'OPEN' AND updated_at IS NOT NULL;
DROP INDEX CONCURRENTLY IF EXISTS infractions_open_idx;
ALTER INDEX IF EXISTS infractions_open_idx_new RENAME TO infractions_open_idx;
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS charges_pix_id_new ON charges (pix_id) WHERE pix_id IS NOT NULL;
ALTER TABLE charges DROP CONSTRAINT IF EXISTS charges_pix_id_key;
DROP INDEX CONCURRENTLY IF EXISTS charges_pix_id_key;
ALTER INDEX IF EXISTS charges_pix_id_new RENAME TO charges_pix_id_key;
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS withdrawals_pix_id_new ON withdrawals (pix_id) WHERE pix_id IS NOT NULL;
ALTER TABLE withdrawals DROP CONSTRAINT IF EXISTS withdrawals_pix_id_key;
DROP INDEX CONCURRENTLY IF EXISTS withdrawals_pix_id_key;
ALTER INDEX IF EXISTS withdrawals_pix_id_new RENAME TO withdrawals_pix_id_key;
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS refunds_pix_id_new ON refunds (pix_id) WHERE pix_id IS NOT NULL;
ALTER TABLE refunds DROP CONSTRAINT IF EXISTS refunds_pix_id_key;
DROP INDEX CONCURRENTLY IF EXISTS refunds_pix_id_key;
ALTER INDEX IF EXISTS refunds_pix_id_new RENAME TO refunds_pix_id_key;
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS med_returns_pix_id_new ON med_returns (pix_id) WHERE pix_id IS NOT NULL;
ALTER TABLE med_returns DROP CONSTRAINT IF EXISTS med_returns_pix_id_key;
DROP INDEX CONCURRENTLY IF EXISTS med_returns_pix_id_key;
ALTER INDEX IF EXISTS med_returns_pix_id_new RENAME TO med_returns_pix_id_key;

-- +goose Down
CREATE INDEX CONCURRENTLY IF NOT EXISTS withdrawals_processing_idx_prev ON withdrawals (updated_at) WHERE status = 'PROCESSING';
DROP INDEX CONCURRENTLY IF EXISTS withdrawals_processing_idx;
ALTER INDEX IF EXISTS withdrawals_processing_idx_prev RENAME TO withdrawals_processing_idx;
CREATE INDEX CONCURRENTLY IF NOT EXISTS refunds_processing_idx_prev ON refunds (updated_at) WHERE status = 'PROCESSING';
DROP INDEX CONCURRENTLY IF EXISTS refunds_processing_idx;
ALTER INDEX IF EXISTS refunds_processing_idx_prev RENAME TO refunds_processing_idx;
CREATE INDEX CONCURRENTLY IF NOT EXISTS med_returns_processing_idx_prev ON med_returns (updated_at) WHERE status = 'PROCESSING';
DROP INDEX CONCURRENTLY IF EXISTS med_returns_processing_idx;
ALTER INDEX IF EXISTS med_returns_processing_idx_prev RENAME TO med_returns_processing_idx;
CREATE INDEX CONCURRENTLY IF NOT EXISTS charges_next_check_idx_prev ON charges (next_check_at) WHERE status = 'PENDING';
DROP INDEX CONCURRENTLY IF EXISTS charges_next_check_idx;
ALTER INDEX IF EXISTS charges_next_check_idx_prev RENAME TO charges_next_check_idx;
CREATE INDEX CONCURRENTLY IF NOT EXISTS charges_first_check_idx_prev ON charges (created_at) WHERE status = 'PENDING' AND next_check_at IS NULL;
DROP INDEX CONCURRENTLY IF EXISTS charges_first_check_idx;
ALTER INDEX IF EXISTS charges_first_check_idx_prev RENAME TO charges_first_check_idx;
CREATE INDEX CONCURRENTLY IF NOT EXISTS charges_unissued_idx_prev ON charges (created_at) WHERE status = 'PENDING' AND pix_id IS NULL;
DROP INDEX CONCURRENTLY IF EXISTS charges_unissued_idx;
ALTER INDEX IF EXISTS charges_unissued_idx_prev RENAME TO charges_unissued_idx;
CREATE INDEX CONCURRENTLY IF NOT EXISTS charges_release_due_idx_prev ON charges (available_at) WHERE held_amount > 0;
DROP INDEX CONCURRENTLY IF EXISTS charges_release_due_idx;
ALTER INDEX IF EXISTS charges_release_due_idx_prev RENAME TO charges_release_due_idx;
CREATE INDEX CONCURRENTLY IF NOT EXISTS postbacks_pending_due_idx_prev ON postbacks (next_attempt_at) WHERE status = 'PENDING';
DROP INDEX CONCURRENTLY IF EXISTS postbacks_pending_due_idx;
ALTER INDEX IF EXISTS postbacks_pending_due_idx_prev RENAME TO postbacks_pending_due_idx;
CREATE INDEX CONCURRENTLY IF NOT EXISTS infractions_open_idx_prev ON infractions (updated_at) WHERE status = 'OPEN';
DROP INDEX CONCURRENTLY IF EXISTS infractions_open_idx;
ALTER INDEX IF EXISTS infractions_open_idx_prev RENAME TO infractions_open_idx;
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS charges_pix_id_prev ON charges (pix_id);
DROP INDEX CONCURRENTLY IF EXISTS charges_pix_id_key;
ALTER TABLE charges ADD CONSTRAINT charges_pix_id_key UNIQUE USING INDEX charges_pix_id_prev;
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS withdrawals_pix_id_prev ON withdrawals (pix_id);
DROP INDEX CONCURRENTLY IF EXISTS withdrawals_pix_id_key;
ALTER TABLE withdrawals ADD CONSTRAINT withdrawals_pix_id_key UNIQUE USING INDEX withdrawals_pix_id_prev;
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS refunds_pix_id_prev ON refunds (pix_id);
DROP INDEX CONCURRENTLY IF EXISTS refunds_pix_id_key;
ALTER TABLE refunds ADD CONSTRAINT refunds_pix_id_key UNIQUE USING INDEX refunds_pix_id_prev;
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS med_returns_pix_id_prev ON med_returns (pix_id);
DROP INDEX CONCURRENTLY IF EXISTS med_returns_pix_id_key;
ALTER TABLE med_returns ADD CONSTRAINT med_returns_pix_id_key UNIQUE USING INDEX med_returns_pix_id_prev;
