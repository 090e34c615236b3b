-- +goose Up
-- A float account per settlement provider: the money PixGate expects that
-- provider to hold. The platform's provider account becomes the float of
-- the provider named 'default' (every charge and transfer so far went
-- through it); a provider record gets its own float, as many shards as the
-- default's, when it is added. Every other account names no provider.
ALTER TABLE ledger_accounts ADD COLUMN provider text NOT NULL DEFAULT '';
UPDATE ledger_accounts SET provider = 'default' WHERE integrator_id IS NULL AND kind = 'provider';
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_provider_check CHECK ((kind = 'provider') = (provider <> ''));
DROP INDEX ledger_accounts_platform_kind_key;
CREATE UNIQUE INDEX ledger_accounts_platform_kind_key ON ledger_accounts (kind, provider, shard) WHERE integrator_id IS NULL;
INSERT INTO ledger_accounts (kind, allow_negative, shard, provider)
SELECT 'provider', true, d.shard, p.name FROM providers p
CROSS JOIN (SELECT shard FROM ledger_accounts WHERE integrator_id IS NULL AND kind = 'provider' AND provider = 'default') d;

-- +goose Down
-- (Folding the floats back into one account would rewrite entries; the
-- down migration refuses while a provider record's float has any.)
DELETE FROM ledger_accounts WHERE integrator_id IS NULL AND kind = 'provider' AND provider <> 'default';
DROP INDEX ledger_accounts_platform_kind_key;
CREATE UNIQUE INDEX ledger_accounts_platform_kind_key ON ledger_accounts (kind, shard) WHERE integrator_id IS NULL;
ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_provider_check;
ALTER TABLE ledger_accounts DROP COLUMN provider;
