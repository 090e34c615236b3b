-- +goose Up
-- The account a charge was paid from, as the settlement provider reported
-- it when it confirmed the payment (the family's debitParty): its holder's
-- name and tax id and its bank, each NULL when the provider did not say.
ALTER TABLE charges
    ADD COLUMN payer_account_name   text,
    ADD COLUMN payer_account_tax_id text,
    ADD COLUMN payer_account_bank   text;

-- +goose Down
ALTER TABLE charges
    DROP COLUMN payer_account_name,
    DROP COLUMN payer_account_tax_id,
    DROP COLUMN payer_account_bank;
