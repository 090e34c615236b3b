-- +goose Up
-- The PIX rules that freeze and claw back money: MED infractions (the
-- Banco Central's Mecanismo Especial de Devolução), the MED returns that
-- follow an agreed one, and same-holder integrators.

-- blocked: money a provider froze under an open infraction, per integrator.
-- It may not go negative, like every integrator account.
ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_kind_check;
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_kind_check
    CHECK (kind IN ('available', 'pending', 'reserved', 'blocked', 'fees', 'provider', 'adjustments'));
INSERT INTO ledger_accounts (integrator_id, kind)
SELECT i.id, 'blocked' FROM integrators i
WHERE NOT EXISTS (SELECT FROM ledger_accounts a WHERE a.integrator_id = i.id AND a.kind = 'blocked');

-- same_holder: the integrator takes PIX only from its payer's own account
-- and pays only to the recipient's own key (Portaria SPA/MF 615/2024).
ALTER TABLE integrators ADD COLUMN same_holder boolean NOT NULL DEFAULT false;

-- returned_reason: why PixGate itself returned a paid charge to its payer
-- (a same-holder integrator's charge paid from another document).
ALTER TABLE charges ADD COLUMN returned_reason text;

-- An infraction is the provider's record of a MED dispute over the PIX that
-- paid a charge. amount is what the payer disputes; blocked_amount what
-- PixGate moved from the integrator's balances to blocked when it arrived
-- (from_pending of it from the charge's held net); amount - blocked_amount is
-- the shortfall the integrator's balances did not cover. It leaves OPEN once:
-- AGREED (the blocked money leaves as a MED return), DISAGREED or CANCELLED
-- (released).
CREATE TABLE infractions (
    id                 uuid        PRIMARY KEY,
    integrator_id      bigint      NOT NULL REFERENCES integrators (id),
    charge_id          uuid        NOT NULL REFERENCES charges (id),
    provider_id        text        NOT NULL CHECK (provider_id <> ''),
    amount             bigint      NOT NULL CHECK (amount > 0),
    blocked_amount     bigint      NOT NULL CHECK (blocked_amount >= 0 AND blocked_amount <= amount),
    from_pending       bigint      NOT NULL DEFAULT 0 CHECK (from_pending >= 0 AND from_pending <= blocked_amount),
    status             text        NOT NULL CHECK (status IN ('OPEN', 'AGREED', 'DISAGREED', 'CANCELLED')),
    reason             text,
    reported_at        timestamptz,
    due_at             timestamptz,
    analysis           text,
    defense            text,
    defended_at        timestamptz,
    defense_forwarded  boolean     NOT NULL DEFAULT false,
    med_return_id      uuid,
    created_at         timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now(),
    closed_at          timestamptz,
    UNIQUE (charge_id, provider_id),
    CHECK ((status = 'OPEN') = (closed_at IS NULL))
);
CREATE INDEX infractions_list_idx ON infractions (integrator_id, id DESC);
CREATE INDEX infractions_status_list_idx ON infractions (integrator_id, status, id DESC);
CREATE INDEX infractions_provider_idx ON infractions (provider_id);
-- What the reconciler asks the provider about: infractions still open.
CREATE INDEX infractions_open_idx ON infractions (updated_at) WHERE status = 'OPEN';

-- A MED return is the outbound transfer of an agreed infraction's blocked
-- money back to the payer, as the provider makes it: the third kind of
-- transfer, with the columns every kind shares.
CREATE TABLE med_returns (
    id              uuid        PRIMARY KEY,
    integrator_id   bigint      NOT NULL REFERENCES integrators (id),
    charge_id       uuid        NOT NULL REFERENCES charges (id),
    infraction_id   uuid        NOT NULL UNIQUE REFERENCES infractions (id),
    external_id     text,
    amount          bigint      NOT NULL CHECK (amount > 0),
    fee             bigint      NOT NULL DEFAULT 0 CHECK (fee = 0),
    status          text        NOT NULL CHECK (status IN ('PROCESSING', 'COMPLETED', 'FAILED')),
    description     text,
    postback_url    text,
    pix_id          text        UNIQUE,
    end_to_end_id   text,
    failure_reason  text,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    finished_at     timestamptz,
    resends         integer     NOT NULL DEFAULT 0,
    flagged_at      timestamptz,
    flag_reason     text,
    UNIQUE (integrator_id, external_id)
);
CREATE INDEX med_returns_list_idx ON med_returns (integrator_id, id DESC);
CREATE INDEX med_returns_status_list_idx ON med_returns (integrator_id, status, id DESC);
CREATE INDEX med_returns_charge_idx ON med_returns (charge_id);
CREATE INDEX med_returns_processing_idx ON med_returns (updated_at) WHERE status = 'PROCESSING';
CREATE INDEX med_returns_flagged_idx ON med_returns (flagged_at) WHERE status = 'PROCESSING' AND flagged_at IS NOT NULL;

ALTER TABLE postbacks DROP CONSTRAINT postbacks_resource_type_check;
ALTER TABLE postbacks ADD CONSTRAINT postbacks_resource_type_check
    CHECK (resource_type IN ('charge', 'withdrawal', 'refund', 'med_return', 'infraction'));

-- +goose Down
ALTER TABLE postbacks DROP CONSTRAINT postbacks_resource_type_check;
ALTER TABLE postbacks ADD CONSTRAINT postbacks_resource_type_check CHECK (resource_type IN ('charge', 'withdrawal', 'refund'));
DROP TABLE med_returns;
DROP TABLE infractions;
ALTER TABLE charges DROP COLUMN returned_reason;
ALTER TABLE integrators DROP COLUMN same_holder;
DELETE FROM ledger_accounts WHERE kind = 'blocked' AND balance = 0
    AND NOT EXISTS (SELECT FROM ledger_entries e WHERE e.account_id = ledger_accounts.id);
ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_kind_check;
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_kind_check
    CHECK (kind IN ('available', 'pending', 'reserved', 'fees', 'provider', 'adjustments'));
