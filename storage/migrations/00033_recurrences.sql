-- +goose Up
-- recurrences: Pix Automático recurrences, the payer's consent to be
-- debited every cycle (docs/recurrences.md). A recurrence is written
-- CREATED and not yet registered (provider_id NULL), then the provider is
-- asked while the integrator waits: registered, it records the provider's
-- id and the QR Code; refused, it is FAILED, and the same request again
-- reopens it. Its status then follows the provider's, through the
-- transitions of storage/recurrence.
CREATE TABLE recurrences (
    id                 uuid        PRIMARY KEY,
    integrator_id      bigint      NOT NULL REFERENCES integrators (id),
    external_id        text        NOT NULL,
    request_hash       bytea       NOT NULL,
    provider           text        NOT NULL DEFAULT 'default',
    provider_id        text,
    status             text        NOT NULL CHECK (status IN ('CREATED', 'APPROVED', 'REJECTED', 'EXPIRED', 'CANCELLED', 'COMPLETED', 'FAILED')),
    journey            text        NOT NULL,
    periodicity        text        NOT NULL,
    start_date         date        NOT NULL,
    end_date           date,
    cycle_count        integer     CHECK (cycle_count > 0),
    amount_fixed       bigint      CHECK (amount_fixed > 0),
    amount_floor       bigint      CHECK (amount_floor > 0),
    payer_max          bigint      CHECK (payer_max > 0),
    retry_policy       text        NOT NULL,
    payer_name         text        NOT NULL,
    payer_document     text        NOT NULL,
    payer_email        text,
    payer_account      jsonb,
    contract           text        NOT NULL,
    description        text,
    qrcode             text,
    consent_expires_at timestamptz NOT NULL,
    cancelled_by       text,
    end_code           text,
    end_reason         text,
    postback_url       text,
    failure_reason     text,
    created_at         timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now(),
    approved_at        timestamptz,
    ended_at           timestamptz,
    UNIQUE (integrator_id, external_id),
    CHECK (amount_fixed IS NULL OR amount_floor IS NULL)
);
CREATE UNIQUE INDEX recurrences_provider_id_idx ON recurrences (provider, provider_id) WHERE provider_id IS NOT NULL;
CREATE INDEX recurrences_list_idx ON recurrences (integrator_id, id DESC);
-- The reconciler's: consents still waiting, the longest without news first.
CREATE INDEX recurrences_waiting_idx ON recurrences (updated_at) WHERE status = 'CREATED' AND provider_id IS NOT NULL;

ALTER TABLE postbacks DROP CONSTRAINT postbacks_resource_type_check;
ALTER TABLE postbacks ADD CONSTRAINT postbacks_resource_type_check
    CHECK (resource_type IN ('charge', 'withdrawal', 'refund', 'med_return', 'infraction', 'recurrence'));

-- The scopes of the recurrence endpoints. A key that carried every scope
-- there was (the default) carries the new ones too; a key limited on
-- purpose stays as it was.
UPDATE api_keys SET scopes = scopes || ARRAY['recurrences:write', 'recurrences:read']
WHERE scopes @> ARRAY['charges:write', 'charges:read', 'withdrawals:write', 'withdrawals:read', 'refunds:write',
                      'balance:read', 'transactions:read', 'infractions:read', 'infractions:write', 'pix_keys:read'];

-- +goose Down
UPDATE api_keys SET scopes = array_remove(array_remove(scopes, 'recurrences:write'), 'recurrences:read');
ALTER TABLE postbacks DROP CONSTRAINT postbacks_resource_type_check;
ALTER TABLE postbacks ADD CONSTRAINT postbacks_resource_type_check
    CHECK (resource_type IN ('charge', 'withdrawal', 'refund', 'med_return', 'infraction'));
DROP TABLE recurrences;
