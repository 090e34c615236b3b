-- +goose Up
-- provider: which provider a notification came from (its webhook path
-- names it; NULL for notifications stored before, all the default
-- provider's then). A claim about a transaction PixGate has not linked to a
-- provider id yet (a send whose answer was lost) is read back at this
-- provider, never at another.
-- external_id: PixGate's own id, as the notification names it where the
-- contract carries it (efi's idEnvio, woovi's correlationID), so that such
-- a claim finds its record by PixGate's id.
ALTER TABLE provider_events ADD COLUMN provider text, ADD COLUMN external_id text;

-- +goose Down
ALTER TABLE provider_events DROP COLUMN provider, DROP COLUMN external_id;
