-- +goose Up
-- due: a due-date charge's terms (the BCB's cobv; docs/due-charges.md):
-- {"original": centavos, "terms": {...}, "fee": the cash-in fee rule in
-- force when it was created}. NULL for an immediate charge. While it is
-- unpaid, amount is the original and fee the fee on it; when paid, amount
-- becomes what was paid on the day (original less rebate and discount, or
-- plus fine and interest) and fee the rule's fee on that.
ALTER TABLE charges ADD COLUMN due jsonb
    CHECK (due IS NULL OR (jsonb_typeof(due -> 'original') = 'number' AND jsonb_typeof(due -> 'terms') = 'object'));

-- +goose Down
ALTER TABLE charges DROP COLUMN due;
