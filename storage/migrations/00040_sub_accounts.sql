-- +goose Up
-- A sub-account (a seller of a marketplace) is an integrator whose parent
-- is the integrator that created it: it has its own ledger accounts, wallet
-- and API keys, and receives the parts of its parent's split charges. One
-- level only: a sub-account has no sub-accounts (the application refuses
-- it). NULL for every integrator that is not a sub-account: adding the
-- column rewrites no row.
ALTER TABLE integrators ADD COLUMN parent_integrator_id bigint REFERENCES integrators (id);
CREATE INDEX integrators_parent_idx ON integrators (parent_integrator_id) WHERE parent_integrator_id IS NOT NULL;

-- +goose Down
DROP INDEX integrators_parent_idx;
ALTER TABLE integrators DROP COLUMN parent_integrator_id;
