-- +goose Up
-- Sharded platform accounts. Every settlement posts to the platform's
-- provider and fees accounts, and every paid charge to fees: one row each
-- made every such posting in the deployment wait for the one before it
-- (and hold its integrator's rows meanwhile). A platform account is now N
-- rows (shards) of one kind; a posting locks one of them, chosen by its
-- reference's hash, so concurrent postings rarely meet. The account's
-- balance is the sum of its shards; the audit's checks hold row by row.
-- Adjustments stay one row: only operators post to it. A shard of an
-- account that may not go negative (fees) must cover a debit by itself;
-- fees are only ever credited.
ALTER TABLE ledger_accounts ADD COLUMN shard smallint NOT NULL DEFAULT 0 CHECK (shard >= 0);
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_integrator_shard_check CHECK (integrator_id IS NULL OR shard = 0);
DROP INDEX ledger_accounts_platform_kind_key;
CREATE UNIQUE INDEX ledger_accounts_platform_kind_key ON ledger_accounts (kind, shard) WHERE integrator_id IS NULL;
INSERT INTO ledger_accounts (kind, allow_negative, shard)
SELECT k.kind, k.allow_negative, s FROM (VALUES ('fees', false), ('provider', true)) AS k(kind, allow_negative), generate_series(1, 15) s;

-- A posting picks the shard by its reference's hash among the kind's
-- shards (ledger.Post), so adding shards is adding rows: shards are numbered
-- from 0 without gaps.

-- +goose Down
-- (Merging shards back would rewrite entries; the down migration refuses
-- while any extra shard has entries.)
DELETE FROM ledger_accounts WHERE integrator_id IS NULL AND shard > 0;
DROP INDEX ledger_accounts_platform_kind_key;
CREATE UNIQUE INDEX ledger_accounts_platform_kind_key ON ledger_accounts (kind) WHERE integrator_id IS NULL;
ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_integrator_shard_check;
ALTER TABLE ledger_accounts DROP COLUMN shard;
