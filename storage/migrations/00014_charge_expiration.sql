-- +goose Up
-- How long a charge can be paid, in seconds from its creation: what the
-- integrator asked for (expiration), else what the provider answered
-- (calendar.expiration) when it issued the charge. NULL for charges issued
-- before this column existed; their validity is expires_at − created_at.
ALTER TABLE charges ADD COLUMN expiration integer CHECK (expiration > 0);

-- +goose Down
ALTER TABLE charges DROP COLUMN expiration;
