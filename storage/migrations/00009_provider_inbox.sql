-- +goose Up
-- The provider notification inbox keeps what the provider sent and
-- deduplicates only against what was confirmed.
--
-- payload becomes the raw bytes: a genuine notification may hold text that
-- jsonb refuses (NUL, invalid UTF-8, lone surrogates, 1e-100000), and
-- refusing it would lose it on every retry of the provider.
--
-- dedup_key ("type:id:status") was ambiguous ("RECEIVEPIX:X" + "coll2"
-- equals "RECEIVEPIX" + "X:coll2") and unique from the first copy on, so an
-- early or forged PAID, processed as "no change", made the genuine one a
-- duplicate. A copy is now a duplicate only of an event that the provider
-- confirmed and that was applied (confirmed), compared column by column.
-- Events stored before this migration count as unconfirmed: a late copy of
-- one is confirmed again, which changes nothing.
ALTER TABLE provider_events DROP COLUMN dedup_key;
ALTER TABLE provider_events ALTER COLUMN payload TYPE bytea USING convert_to(payload::text, 'UTF8');
ALTER TABLE provider_events ADD COLUMN confirmed boolean NOT NULL DEFAULT false;
CREATE INDEX provider_events_confirmed_idx ON provider_events (transaction_id, transaction_type, status) WHERE confirmed;

-- +goose Down
DROP INDEX provider_events_confirmed_idx;
ALTER TABLE provider_events DROP COLUMN confirmed;
-- Bodies jsonb could not hold go back as a JSON string of their escaped bytes.
ALTER TABLE provider_events ALTER COLUMN payload TYPE jsonb USING to_jsonb(encode(payload, 'escape'));
ALTER TABLE provider_events ADD COLUMN dedup_key text;
UPDATE provider_events SET dedup_key = transaction_type || ':' || transaction_id || ':' || status || ':' || id;
ALTER TABLE provider_events ALTER COLUMN dedup_key SET NOT NULL;
ALTER TABLE provider_events ADD CONSTRAINT provider_events_dedup_key_key UNIQUE (dedup_key);
