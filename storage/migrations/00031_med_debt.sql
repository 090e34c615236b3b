-- +goose Up
-- debt: what an integrator owes the platform, per integrator. When an agreed
-- MED infraction makes the provider return more than the integrator's
-- balances could block (the money had left the wallet), the provider still
-- returns it all, from PixGate's account: the rest is the integrator's debt,
-- recovered from its next cash-ins before they are credited. It is the one
-- integrator account that goes negative (minus what is owed) and it never
-- goes above zero.
ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_kind_check;
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_kind_check
    CHECK (kind IN ('available', 'pending', 'reserved', 'blocked', 'debt', 'fees', 'provider', 'adjustments'));
ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_check1;
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_integrator_negative_check
    CHECK (integrator_id IS NULL OR allow_negative = (kind = 'debt'));
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_debt_check CHECK (kind <> 'debt' OR balance <= 0);
INSERT INTO ledger_accounts (integrator_id, kind, allow_negative)
SELECT i.id, 'debt', true FROM integrators i
WHERE NOT EXISTS (SELECT FROM ledger_accounts a WHERE a.integrator_id = i.id AND a.kind = 'debt');

-- A MED return moves what the provider returns (the infraction's
-- returned_amount): covered of it is what the infraction blocked, the
-- shortfall (amount - covered) what the integrator's balances did not hold,
-- booked as its debt when the return is reserved. debt_released is what a
-- failed return gave back to the debt (what was still owed of its
-- shortfall; what cash-ins had recovered goes to available). Returns
-- recorded before moved what was blocked: covered is their amount.
ALTER TABLE med_returns ADD COLUMN covered bigint, ADD COLUMN debt_released bigint NOT NULL DEFAULT 0;
UPDATE med_returns SET covered = amount;
ALTER TABLE med_returns ALTER COLUMN covered SET NOT NULL,
    ADD CONSTRAINT med_returns_covered_check CHECK (covered >= 0 AND covered <= amount),
    ADD CONSTRAINT med_returns_debt_released_check CHECK (debt_released >= 0 AND debt_released <= amount - covered);

-- debt_recovered: what a paid charge's net paid of its integrator's debt
-- before the rest was credited.
ALTER TABLE charges ADD COLUMN debt_recovered bigint NOT NULL DEFAULT 0
    CHECK (debt_recovered >= 0 AND debt_recovered <= amount);

-- +goose Down
ALTER TABLE charges DROP COLUMN debt_recovered;
ALTER TABLE med_returns DROP COLUMN covered, DROP COLUMN debt_released;
DELETE FROM ledger_accounts WHERE kind = 'debt' AND balance = 0
    AND NOT EXISTS (SELECT FROM ledger_entries e WHERE e.account_id = ledger_accounts.id);
ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_debt_check;
ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_integrator_negative_check;
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_check1 CHECK (integrator_id IS NULL OR NOT allow_negative);
ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_kind_check;
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_kind_check
    CHECK (kind IN ('available', 'pending', 'reserved', 'blocked', 'fees', 'provider', 'adjustments'));
