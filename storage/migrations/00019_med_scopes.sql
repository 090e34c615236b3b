-- +goose Up
-- The scopes of the MED and key-lookup endpoints. A key that carried every
-- scope there was (the default) carries the new ones too; a key limited
-- on purpose stays as it was.
UPDATE api_keys SET scopes = scopes || ARRAY['infractions:read', 'infractions:write', 'pix_keys:read']
WHERE scopes @> ARRAY['charges:write', 'charges:read', 'withdrawals:write', 'withdrawals:read', 'refunds:write',
                      'balance:read', 'transactions:read'];

-- +goose Down
UPDATE api_keys SET scopes = array_remove(array_remove(array_remove(scopes, 'infractions:read'), 'infractions:write'), 'pix_keys:read');
