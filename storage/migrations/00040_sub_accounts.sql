-- +goose Up
-- A sub-account (a seller of a marketplace) is an integrator whose parent
-- is the integrator that created it: it has its own ledger accounts, wallet
-- and API keys, and receives the parts of its parent's split charges. One
-- level only: a sub-account has no sub-accounts (the application refuses
-- it). NULL for every integrator that is not a sub-account: adding the
-- column rewrites no row.
ALTER TABLE integrators ADD COLUMN parent_integrator_id bigint REFERENCES integrators (id);
CREATE INDEX integrators_parent_idx ON integrators (parent_integrator_id) WHERE parent_integrator_id IS NOT NULL;

-- The scopes of the sub-accounts. A key that carried every scope there was
-- (the default) carries the new ones too; a key limited on purpose stays as
-- it was.
UPDATE api_keys SET scopes = scopes || ARRAY['sub_accounts:write', 'sub_accounts:read']
WHERE scopes @> ARRAY['charges:write', 'charges:read', 'withdrawals:write', 'withdrawals:read', 'refunds:write',
                      'balance:read', 'transactions:read', 'infractions:read', 'infractions:write', 'pix_keys:read',
                      'recurrences:write', 'recurrences:read', 'webhooks:write', 'webhooks:read'];

-- +goose Down
UPDATE api_keys SET scopes = array_remove(array_remove(scopes, 'sub_accounts:write'), 'sub_accounts:read');
DROP INDEX integrators_parent_idx;
ALTER TABLE integrators DROP COLUMN parent_integrator_id;
