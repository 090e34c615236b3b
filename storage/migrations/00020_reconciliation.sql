-- +goose Up
-- Reconciliation with each provider's books: day by day, every line of the
-- provider's statement matched with PixGate's records, the exceptions kept
-- for an operator to resolve.

-- A provider's day: its current result and when the worker runs it (again).
-- next_run_at is NULL once nothing is left to do; claimed_until keeps two
-- workers from running the same day at once.
CREATE TABLE reconciliation_days (
    provider       text        NOT NULL CHECK (provider <> ''),
    day            date        NOT NULL,
    status         text        NOT NULL DEFAULT 'due'
        CHECK (status IN ('due', 'reconciled', 'unreconciled', 'failed')),
    run_id         bigint,
    next_run_at    timestamptz,
    claimed_until  timestamptz,
    attempts       integer     NOT NULL DEFAULT 0,
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (provider, day)
);
CREATE INDEX reconciliation_days_due_idx ON reconciliation_days (next_run_at) WHERE next_run_at IS NOT NULL;

-- Every run, kept: who started it, how it ended, what it counted and the
-- day's balance figures (amounts in centavos; the provider's balances are
-- NULL when its contract reports none).
CREATE TABLE reconciliation_runs (
    id                  bigserial   PRIMARY KEY,
    provider            text        NOT NULL,
    day                 date        NOT NULL,
    trigger             text        NOT NULL CHECK (trigger IN ('worker', 'operator')),
    status              text        NOT NULL CHECK (status IN ('done', 'failed')),
    error               text,
    started_at          timestamptz NOT NULL,
    finished_at         timestamptz NOT NULL DEFAULT now(),
    grace_until         timestamptz NOT NULL,
    lines               bigint      NOT NULL DEFAULT 0,
    records             bigint      NOT NULL DEFAULT 0,
    matched             bigint      NOT NULL DEFAULT 0,
    expected            bigint      NOT NULL DEFAULT 0,
    exceptions          bigint      NOT NULL DEFAULT 0,
    opening_balance     bigint,
    closing_balance     bigint,
    lines_net           bigint      NOT NULL DEFAULT 0,
    float_net           bigint      NOT NULL DEFAULT 0,
    float_at_close      bigint,
    day_difference      bigint,
    explained           bigint      NOT NULL DEFAULT 0,
    unexplained         bigint,
    closing_difference  bigint
);
CREATE INDEX reconciliation_runs_day_idx ON reconciliation_runs (provider, day, id DESC);

-- What a run found besides plain matches: each exception, each item still
-- expected, and each match across a day's boundary. item_key names it
-- across reruns (the line's strongest id and its occurrence, or PixGate's
-- record), so a rerun replaces the day's items and keeps the resolution of
-- one it finds again. delta is what the provider's side does to the money
-- it holds less what PixGate's does; adjusted, what a resolution posted of
-- it to the provider's float.
CREATE TABLE reconciliation_items (
    id                  uuid        PRIMARY KEY,
    provider            text        NOT NULL,
    day                 date        NOT NULL,
    item_key            text        NOT NULL,
    run_id              bigint      NOT NULL REFERENCES reconciliation_runs (id),
    kind                text        NOT NULL CHECK (kind IN ('matched', 'expected', 'missing_in_pixgate',
        'missing_at_provider', 'amount_mismatch', 'status_mismatch', 'duplicate_at_provider')),
    expected_kind       text,
    status              text        NOT NULL CHECK (status IN ('open', 'resolved', 'info')),
    line_kind           text,
    line_provider_id    text,
    line_external_id    text,
    line_end_to_end_id  text,
    line_amount         bigint,
    line_fee            bigint,
    line_status         text,
    line_settled_at     timestamptz,
    record_kind         text,
    record_id           uuid,
    record_amount       bigint,
    record_status       text,
    record_settled_at   timestamptz,
    delta               bigint      NOT NULL DEFAULT 0,
    adjusted            bigint      NOT NULL DEFAULT 0,
    adjustment_id       bigint      REFERENCES ledger_transactions (id),
    resolved_at         timestamptz,
    resolved_by         text,
    resolution          text,
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now(),
    UNIQUE (provider, day, item_key),
    CHECK ((status = 'resolved') = (resolved_at IS NOT NULL))
);
CREATE INDEX reconciliation_items_open_idx ON reconciliation_items (provider, kind) WHERE status = 'open';
CREATE INDEX reconciliation_items_record_idx ON reconciliation_items (record_id) WHERE record_id IS NOT NULL;

-- What a day's matching scans: PixGate's records by when they settled, and
-- the lines it could not match in the day by their ids.
CREATE INDEX charges_paid_at_idx ON charges (paid_at) WHERE paid_at IS NOT NULL;
CREATE INDEX withdrawals_finished_idx ON withdrawals (finished_at) WHERE status = 'COMPLETED';
CREATE INDEX refunds_finished_idx ON refunds (finished_at) WHERE status = 'COMPLETED';
CREATE INDEX med_returns_finished_idx ON med_returns (finished_at) WHERE status = 'COMPLETED';
CREATE INDEX withdrawals_end_to_end_idx ON withdrawals (end_to_end_id) WHERE end_to_end_id IS NOT NULL;
CREATE INDEX refunds_end_to_end_idx ON refunds (end_to_end_id) WHERE end_to_end_id IS NOT NULL;
CREATE INDEX med_returns_end_to_end_idx ON med_returns (end_to_end_id) WHERE end_to_end_id IS NOT NULL;

-- +goose Down
DROP INDEX med_returns_end_to_end_idx;
DROP INDEX refunds_end_to_end_idx;
DROP INDEX withdrawals_end_to_end_idx;
DROP INDEX med_returns_finished_idx;
DROP INDEX refunds_finished_idx;
DROP INDEX withdrawals_finished_idx;
DROP INDEX charges_paid_at_idx;
DROP TABLE reconciliation_items;
DROP TABLE reconciliation_runs;
DROP TABLE reconciliation_days;
