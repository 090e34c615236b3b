-- +goose Up
-- Charges, withdrawals and refunds; the provider-event inbox; the outbox that
-- asks for tasks; postbacks to integrators and their attempts.
--
-- Record ids are UUIDv7: time-ordered, so "newest first" lists page on the id
-- alone (keyset pagination) and the primary key index stays append-mostly.

CREATE TABLE charges (
    id               uuid        PRIMARY KEY,
    integrator_id    bigint      NOT NULL REFERENCES integrators (id),
    external_id      text        NOT NULL,
    request_hash     bytea       NOT NULL,
    amount           bigint      NOT NULL CHECK (amount > 0),
    fee              bigint      NOT NULL CHECK (fee >= 0 AND fee < amount),
    status           text        NOT NULL CHECK (status IN ('PENDING', 'PAID', 'EXPIRED', 'FAILED', 'REFUNDED')),
    pix_id           text        UNIQUE,
    qrcode           text,
    expires_at       timestamptz,
    payer_name       text        NOT NULL,
    payer_document   text        NOT NULL,
    payer_email      text,
    payer_question   text,
    postback_url     text,
    split            jsonb,
    refunded_amount  bigint      NOT NULL DEFAULT 0 CHECK (refunded_amount >= 0 AND refunded_amount <= amount),
    failure_reason   text,
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now(),
    paid_at          timestamptz,
    UNIQUE (integrator_id, external_id)
);
CREATE INDEX charges_list_idx ON charges (integrator_id, id DESC);
CREATE INDEX charges_status_list_idx ON charges (integrator_id, status, id DESC);
CREATE INDEX charges_pending_expiry_idx ON charges (expires_at) WHERE status = 'PENDING';

CREATE TABLE withdrawals (
    id                    uuid        PRIMARY KEY,
    integrator_id         bigint      NOT NULL REFERENCES integrators (id),
    external_id           text,
    request_hash          bytea       NOT NULL,
    amount                bigint      NOT NULL CHECK (amount > 0),
    fee                   bigint      NOT NULL CHECK (fee >= 0),
    status                text        NOT NULL CHECK (status IN ('PROCESSING', 'COMPLETED', 'FAILED')),
    credit_party_name     text        NOT NULL,
    credit_party_key_type text        NOT NULL,
    credit_party_key      text        NOT NULL,
    credit_party_tax_id   text        NOT NULL,
    description           text,
    postback_url          text,
    pix_id                text        UNIQUE,
    end_to_end_id         text,
    failure_reason        text,
    created_at            timestamptz NOT NULL DEFAULT now(),
    updated_at            timestamptz NOT NULL DEFAULT now(),
    finished_at           timestamptz,
    UNIQUE (integrator_id, external_id)
);
CREATE INDEX withdrawals_list_idx ON withdrawals (integrator_id, id DESC);
CREATE INDEX withdrawals_status_list_idx ON withdrawals (integrator_id, status, id DESC);
CREATE INDEX withdrawals_processing_idx ON withdrawals (updated_at) WHERE status = 'PROCESSING';

CREATE TABLE refunds (
    id              uuid        PRIMARY KEY,
    integrator_id   bigint      NOT NULL REFERENCES integrators (id),
    charge_id       uuid        NOT NULL REFERENCES charges (id),
    external_id     text,
    request_hash    bytea       NOT NULL,
    amount          bigint      NOT NULL CHECK (amount > 0),
    fee             bigint      NOT NULL CHECK (fee >= 0),
    status          text        NOT NULL CHECK (status IN ('PROCESSING', 'COMPLETED', 'FAILED')),
    description     text,
    postback_url    text,
    pix_id          text        UNIQUE,
    end_to_end_id   text,
    failure_reason  text,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    finished_at     timestamptz,
    UNIQUE (integrator_id, external_id)
);
CREATE INDEX refunds_charge_idx ON refunds (charge_id);
CREATE INDEX refunds_processing_idx ON refunds (updated_at) WHERE status = 'PROCESSING';

-- The inbox: every provider notification, kept raw and deduplicated by what
-- it claims (transaction, type, status). Claims are confirmed with the
-- provider before any money moves.
CREATE TABLE provider_events (
    id                bigserial   PRIMARY KEY,
    dedup_key         text        NOT NULL UNIQUE,
    transaction_type  text        NOT NULL,
    transaction_id    text        NOT NULL,
    status            text        NOT NULL,
    payload           jsonb       NOT NULL,
    received_at       timestamptz NOT NULL DEFAULT now(),
    processed_at      timestamptz,
    outcome           text
);
CREATE INDEX provider_events_unprocessed_idx ON provider_events (id) WHERE processed_at IS NULL;

-- The transactional outbox: a row asks for one asynq task and is written in
-- the same SQL transaction as the state change that needs it. task_id is the
-- asynq TaskID, derived from the row's cause, so a re-enqueue is a no-op.
CREATE TABLE outbox (
    id           bigserial   PRIMARY KEY,
    task_type    text        NOT NULL,
    task_id      text        NOT NULL UNIQUE,
    payload      jsonb       NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    enqueued_at  timestamptz,
    attempts     integer     NOT NULL DEFAULT 0,
    last_error   text
);
CREATE INDEX outbox_pending_idx ON outbox (id) WHERE enqueued_at IS NULL;

CREATE TABLE postbacks (
    id               uuid        PRIMARY KEY,
    integrator_id    bigint      NOT NULL REFERENCES integrators (id),
    resource_type    text        NOT NULL CHECK (resource_type IN ('charge', 'withdrawal', 'refund')),
    resource_id      uuid        NOT NULL,
    event            text        NOT NULL,
    url              text        NOT NULL,
    body             bytea       NOT NULL,
    status           text        NOT NULL CHECK (status IN ('PENDING', 'DELIVERED', 'FAILED', 'STOPPED')),
    attempts         integer     NOT NULL DEFAULT 0,
    next_attempt_at  timestamptz,
    last_status_code integer,
    last_error       text,
    created_at       timestamptz NOT NULL DEFAULT now(),
    delivered_at     timestamptz,
    UNIQUE (resource_type, resource_id, event)
);
CREATE INDEX postbacks_integrator_idx ON postbacks (integrator_id, created_at DESC);

CREATE TABLE postback_attempts (
    id           bigserial   PRIMARY KEY,
    postback_id  uuid        NOT NULL REFERENCES postbacks (id),
    attempt      integer     NOT NULL,
    status_code  integer,
    latency_ms   integer     NOT NULL,
    error        text,
    created_at   timestamptz NOT NULL DEFAULT now(),
    UNIQUE (postback_id, attempt)
);

-- +goose Down
DROP TABLE postback_attempts;
DROP TABLE postbacks;
DROP TABLE outbox;
DROP TABLE provider_events;
DROP TABLE refunds;
DROP TABLE withdrawals;
DROP TABLE charges;
