-- +goose Up
-- Several providers at once. A provider is a record; the one configured by
-- PIXGATE_PROVIDER_* is not one: it is always named 'default' and built
-- from the environment, so the name is reserved here. A record holds no
-- secret: client_secret_ref names where the secret is read at start
-- ('env:VAR' or 'file:/path'), and the files are paths.
CREATE TABLE providers (
    name              text        PRIMARY KEY
        CHECK (name ~ '^[a-z0-9][a-z0-9_-]{0,31}$' AND name <> 'default'),
    kind              text        NOT NULL CHECK (kind <> ''),
    url               text        NOT NULL CHECK (url <> ''),
    client_id         text        NOT NULL DEFAULT '',
    client_secret_ref text        NOT NULL DEFAULT ''
        CHECK (client_secret_ref = '' OR client_secret_ref ~ '^(env|file):.'),
    cert_file         text        NOT NULL DEFAULT '',
    key_file          text        NOT NULL DEFAULT '',
    ca_file           text        NOT NULL DEFAULT '',
    pix_key           text        NOT NULL DEFAULT '',
    enabled           boolean     NOT NULL DEFAULT true,
    created_at        timestamptz NOT NULL DEFAULT now(),
    updated_at        timestamptz NOT NULL DEFAULT now()
);

-- Every charge and transfer records the provider that holds it: reads,
-- notifications and settlement go to that provider, whatever the routes
-- say later. What existed before went through the one provider there was.
ALTER TABLE charges ADD COLUMN provider text NOT NULL DEFAULT 'default' CHECK (provider <> '');
ALTER TABLE withdrawals ADD COLUMN provider text NOT NULL DEFAULT 'default' CHECK (provider <> '');
ALTER TABLE refunds ADD COLUMN provider text NOT NULL DEFAULT 'default' CHECK (provider <> '');
ALTER TABLE med_returns ADD COLUMN provider text NOT NULL DEFAULT 'default' CHECK (provider <> '');

-- Routes: which providers take an integrator's charges (in order, with
-- optional weights that split the volume; all zero: order alone) and its
-- withdrawals (in order). The row with integrator_id NULL is the default
-- route of integrators without one.
CREATE TABLE routes (
    integrator_id   bigint      REFERENCES integrators (id) ON DELETE CASCADE,
    charges         text[]      NOT NULL CHECK (cardinality(charges) > 0),
    charge_weights  integer[]   NOT NULL,
    withdrawals     text[]      NOT NULL CHECK (cardinality(withdrawals) > 0),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    CHECK (cardinality(charge_weights) = cardinality(charges))
);
CREATE UNIQUE INDEX routes_integrator_key ON routes (coalesce(integrator_id, 0));

-- +goose Down
DROP TABLE routes;
ALTER TABLE med_returns DROP COLUMN provider;
ALTER TABLE refunds DROP COLUMN provider;
ALTER TABLE withdrawals DROP COLUMN provider;
ALTER TABLE charges DROP COLUMN provider;
DROP TABLE providers;
