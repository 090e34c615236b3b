-- +goose Up
-- An endpoint is an integrator's postback URL. A row exists once an
-- operator or the integrator paused it (or PixGate disabled it): no row
-- means ACTIVE. While it is not ACTIVE its postbacks are not attempted and
-- wait PENDING; the reconciler leaves them alone too.
CREATE TABLE webhook_endpoints (
    integrator_id bigint      NOT NULL REFERENCES integrators (id),
    url           text        NOT NULL,
    status        text        NOT NULL CHECK (status IN ('ACTIVE', 'PAUSED', 'DISABLED')),
    reason        text,
    changed_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (integrator_id, url)
);

-- An endpoint's waiting postbacks, oldest first: what a resume delivers,
-- and what the delivery of a resumed endpoint's postbacks checks so that
-- they go in order.
CREATE INDEX postbacks_endpoint_pending_idx ON postbacks (integrator_id, url, id) WHERE status = 'PENDING';

-- The scopes of the webhook endpoints. A key that carried every scope
-- there was (the default) carries the new ones too; a key limited on
-- purpose stays as it was.
UPDATE api_keys SET scopes = scopes || ARRAY['webhooks:write', 'webhooks:read']
WHERE scopes @> ARRAY['charges:write', 'charges:read', 'withdrawals:write', 'withdrawals:read', 'refunds:write',
                      'balance:read', 'transactions:read', 'infractions:read', 'infractions:write', 'pix_keys:read',
                      'recurrences:write', 'recurrences:read'];

-- +goose Down
UPDATE api_keys SET scopes = array_remove(array_remove(scopes, 'webhooks:write'), 'webhooks:read');
DROP INDEX postbacks_endpoint_pending_idx;
DROP TABLE webhook_endpoints;
