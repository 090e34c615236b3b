-- +goose Up
-- returned_amount: what an agreed infraction counted against its charge's
-- refundable amount. The provider gives the payer back what the infraction
-- disputes, however much of it PixGate could block, so the charge counts
-- that (at most what it still had to give, at least what was blocked), not
-- the MED return's amount alone; a MED return that fails gives it back.
-- Agreed infractions recorded before counted their MED return's amount.
ALTER TABLE infractions ADD COLUMN returned_amount bigint NOT NULL DEFAULT 0
    CHECK (returned_amount >= 0 AND returned_amount <= amount);
UPDATE infractions i SET returned_amount = m.amount FROM med_returns m WHERE m.infraction_id = i.id;

-- +goose Down
ALTER TABLE infractions DROP COLUMN returned_amount;
