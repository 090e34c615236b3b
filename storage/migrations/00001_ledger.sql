-- +goose Up
-- Integrators, their API keys, and the double-entry ledger.

CREATE TABLE integrators (
    id                 bigserial PRIMARY KEY,
    name               text        NOT NULL CHECK (name <> ''),
    email              text        NOT NULL CHECK (email <> ''),
    cashin_fee_kind    text        NOT NULL CHECK (cashin_fee_kind IN ('percent', 'fixed')),
    cashin_fee_value   bigint      NOT NULL CHECK (cashin_fee_value >= 0),
    cashout_fee_kind   text        NOT NULL CHECK (cashout_fee_kind IN ('percent', 'fixed')),
    cashout_fee_value  bigint      NOT NULL CHECK (cashout_fee_value >= 0),
    -- The Standard Webhooks signing key. It signs postbacks, so it is kept
    -- usable (unlike API secrets, which are stored only as hashes).
    webhook_secret     text        NOT NULL,
    created_at         timestamptz NOT NULL DEFAULT now(),
    CHECK (cashin_fee_kind <> 'percent' OR cashin_fee_value <= 1000000),
    CHECK (cashout_fee_kind <> 'percent' OR cashout_fee_value <= 1000000)
);
CREATE UNIQUE INDEX integrators_email_key ON integrators (lower(email));

CREATE TABLE api_keys (
    id             bigserial PRIMARY KEY,
    integrator_id  bigint      NOT NULL REFERENCES integrators (id),
    public_id      text        NOT NULL UNIQUE,
    secret_hash    bytea       NOT NULL CHECK (length(secret_hash) = 32),
    scopes         text[]      NOT NULL,
    ip_allowlist   cidr[]      NOT NULL DEFAULT '{}',
    created_at     timestamptz NOT NULL DEFAULT now(),
    revoked_at     timestamptz
);
CREATE INDEX api_keys_integrator_idx ON api_keys (integrator_id);

-- Accounts. Integrator accounts (available, pending, reserved) never go
-- below zero; platform accounts have no integrator. The provider account is
-- the money held at the settlement provider and may go negative, as may
-- adjustments (the source of manual operator credits).
CREATE TABLE ledger_accounts (
    id             bigserial PRIMARY KEY,
    integrator_id  bigint REFERENCES integrators (id),
    kind           text   NOT NULL CHECK (kind IN ('available', 'pending', 'reserved', 'fees', 'provider', 'adjustments')),
    balance        bigint NOT NULL DEFAULT 0,
    allow_negative boolean NOT NULL DEFAULT false,
    CHECK ((integrator_id IS NULL) = (kind IN ('fees', 'provider', 'adjustments'))),
    CHECK (integrator_id IS NULL OR NOT allow_negative),
    CHECK (allow_negative OR balance >= 0)
);
CREATE UNIQUE INDEX ledger_accounts_integrator_kind_key ON ledger_accounts (integrator_id, kind) WHERE integrator_id IS NOT NULL;
CREATE UNIQUE INDEX ledger_accounts_platform_kind_key ON ledger_accounts (kind) WHERE integrator_id IS NULL;

INSERT INTO ledger_accounts (kind, allow_negative) VALUES
    ('fees', false),
    ('provider', true),
    ('adjustments', true);

-- A ledger transaction is one balanced posting. Its reference names the
-- cause ("withdrawal:<id>:reserve", "charge:<id>:paid") and is unique, so the
-- same cause can never post twice.
CREATE TABLE ledger_transactions (
    id          bigserial PRIMARY KEY,
    reference   text        NOT NULL UNIQUE,
    kind        text        NOT NULL,
    memo        text        NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE ledger_entries (
    id              bigserial PRIMARY KEY,
    transaction_id  bigint      NOT NULL REFERENCES ledger_transactions (id),
    account_id      bigint      NOT NULL REFERENCES ledger_accounts (id),
    amount          bigint      NOT NULL CHECK (amount <> 0),
    balance_after   bigint      NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ledger_entries_transaction_idx ON ledger_entries (transaction_id);
CREATE INDEX ledger_entries_account_idx ON ledger_entries (account_id, id);

-- +goose Down
DROP TABLE ledger_entries;
DROP TABLE ledger_transactions;
DROP TABLE ledger_accounts;
DROP TABLE api_keys;
DROP TABLE integrators;
