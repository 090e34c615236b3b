-- +goose Up
-- A provider's maximum per PIX (Res. BCB 494-498/2025: R$ 15,000 for an
-- institution that reaches the system through an IT provider or is not yet
-- authorised), in centavos; NULL: none. max_per_pix_night applies from
-- 20:00 to 06:00 America/Sao_Paulo (see storage.PixLimit).
ALTER TABLE providers ADD COLUMN max_per_pix bigint CHECK (max_per_pix > 0);
ALTER TABLE providers ADD COLUMN max_per_pix_night bigint CHECK (max_per_pix_night > 0);

-- Key lookups per integrator and day (America/Sao_Paulo), for the lookup-to-payment
-- ratio (pixgate lookups ratio): one upsert a lookup.
CREATE TABLE key_lookup_days (
    integrator_id bigint NOT NULL REFERENCES integrators (id),
    day           date   NOT NULL,
    lookups       bigint NOT NULL DEFAULT 0,
    misses        bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (integrator_id, day)
);

-- +goose Down
DROP TABLE key_lookup_days;
ALTER TABLE providers DROP COLUMN max_per_pix_night;
ALTER TABLE providers DROP COLUMN max_per_pix;
