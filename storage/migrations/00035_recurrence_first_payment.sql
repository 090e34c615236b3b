-- +goose Up
-- first_charge_id: the first payment of a journey that has one
-- (QR_WITH_PAYMENT): an ordinary charge, written with the recurrence and
-- paid with the payer's consent (docs/recurrences.md); it is cycle 0, so the
-- recurrence's scheduler starts at cycle 1.
ALTER TABLE recurrences ADD COLUMN first_charge_id uuid REFERENCES charges (id);

-- +goose Down
ALTER TABLE recurrences DROP COLUMN first_charge_id;
