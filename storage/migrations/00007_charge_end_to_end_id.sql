-- +goose Up
-- The PIX end-to-end id of a paid charge, as the provider reports it: the
-- id the payer's bank and the Central Bank know the payment by.
ALTER TABLE charges ADD COLUMN end_to_end_id text;

-- +goose Down
ALTER TABLE charges DROP COLUMN end_to_end_id;
