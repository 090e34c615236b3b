-- +goose Up
-- Batch payouts and their approval (maker-checker).
--
-- An integrator may ask for a second key's approval of its withdrawals:
-- those above approval_threshold (centavos; NULL: none), or all of them
-- (approval_all), wait AWAITING_APPROVAL with their money reserved until
-- a key other than the one that created them approves or rejects them,
-- or approval_expiry passes (then they are rejected as approval_expired).
ALTER TABLE integrators ADD COLUMN approval_threshold bigint CHECK (approval_threshold >= 0);
ALTER TABLE integrators ADD COLUMN approval_all boolean NOT NULL DEFAULT false;
ALTER TABLE integrators ADD COLUMN approval_expiry interval NOT NULL DEFAULT interval '24 hours';

-- A batch of withdrawals created at once: its items are withdrawals
-- naming it (withdrawals.batch_id). Its reservation, and the release of
-- a rejected batch's, is one posting for the whole batch; each item
-- settles or fails on its own afterwards.
CREATE TABLE withdrawal_batches (
    id                  uuid        PRIMARY KEY,
    integrator_id       bigint      NOT NULL REFERENCES integrators (id),
    external_id         text        NOT NULL,
    request_hash        bytea       NOT NULL,
    status              text        NOT NULL CHECK (status IN ('AWAITING_APPROVAL', 'PROCESSING', 'COMPLETED', 'REJECTED')),
    item_count          integer     NOT NULL CHECK (item_count >= 0),
    amount              bigint      NOT NULL CHECK (amount >= 0),
    fee                 bigint      NOT NULL CHECK (fee >= 0),
    postback_url        text,
    created_by_key      bigint      REFERENCES api_keys (id),
    decided_by_key      bigint      REFERENCES api_keys (id),
    rejection_reason    text,
    approval_expires_at timestamptz,
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now(),
    finished_at         timestamptz,
    UNIQUE (integrator_id, external_id)
);
CREATE INDEX withdrawal_batches_list_idx ON withdrawal_batches (integrator_id, id DESC);
CREATE INDEX withdrawal_batches_awaiting_idx ON withdrawal_batches (approval_expires_at) WHERE status = 'AWAITING_APPROVAL';
CREATE INDEX withdrawal_batches_processing_idx ON withdrawal_batches (updated_at) WHERE status = 'PROCESSING';

ALTER TABLE withdrawals DROP CONSTRAINT withdrawals_status_check;
ALTER TABLE withdrawals ADD CONSTRAINT withdrawals_status_check
    CHECK (status IN ('AWAITING_APPROVAL', 'PROCESSING', 'COMPLETED', 'FAILED')) NOT VALID;
ALTER TABLE withdrawals VALIDATE CONSTRAINT withdrawals_status_check;
ALTER TABLE withdrawals ADD COLUMN batch_id uuid REFERENCES withdrawal_batches (id);
ALTER TABLE withdrawals ADD COLUMN created_by_key bigint REFERENCES api_keys (id);
ALTER TABLE withdrawals ADD COLUMN approval_expires_at timestamptz;
CREATE INDEX withdrawals_batch_idx ON withdrawals (batch_id, id) WHERE batch_id IS NOT NULL;
CREATE INDEX withdrawals_awaiting_idx ON withdrawals (approval_expires_at) WHERE status = 'AWAITING_APPROVAL' AND batch_id IS NULL;

-- A batch's own postback (PAYMENT_BATCH).
ALTER TABLE postbacks DROP CONSTRAINT postbacks_resource_type_check;
ALTER TABLE postbacks ADD CONSTRAINT postbacks_resource_type_check
    CHECK (resource_type IN ('charge', 'withdrawal', 'refund', 'med_return', 'infraction', 'recurrence',
                             'recurrence_cycle', 'recurrence_attempt', 'withdrawal_batch')) NOT VALID;
ALTER TABLE postbacks VALIDATE CONSTRAINT postbacks_resource_type_check;

-- +goose Down
DELETE FROM postbacks WHERE resource_type = 'withdrawal_batch';
ALTER TABLE postbacks DROP CONSTRAINT postbacks_resource_type_check;
ALTER TABLE postbacks ADD CONSTRAINT postbacks_resource_type_check
    CHECK (resource_type IN ('charge', 'withdrawal', 'refund', 'med_return', 'infraction', 'recurrence',
                             'recurrence_cycle', 'recurrence_attempt'));
DROP INDEX withdrawals_awaiting_idx;
DROP INDEX withdrawals_batch_idx;
ALTER TABLE withdrawals DROP COLUMN approval_expires_at;
ALTER TABLE withdrawals DROP COLUMN created_by_key;
ALTER TABLE withdrawals DROP COLUMN batch_id;
ALTER TABLE withdrawals DROP CONSTRAINT withdrawals_status_check;
ALTER TABLE withdrawals ADD CONSTRAINT withdrawals_status_check CHECK (status IN ('PROCESSING', 'COMPLETED', 'FAILED')) NOT VALID;
DROP TABLE withdrawal_batches;
ALTER TABLE integrators DROP COLUMN approval_expiry;
ALTER TABLE integrators DROP COLUMN approval_all;
ALTER TABLE integrators DROP COLUMN approval_threshold;
