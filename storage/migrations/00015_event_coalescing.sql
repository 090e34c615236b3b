-- +goose Up
-- Identical notifications coalesce. A provider (or anyone holding the
-- webhook token) that sends one claim (type, transaction, status) a
-- thousand times made a thousand events, outbox rows, tasks and consults.
-- A copy is now acknowledged without a row of its own while an identical
-- event is queued and no worker has begun consulting for it (picked_at),
-- or when one was consulted lately and the provider bore its claim out
-- (borne_out). A claim the provider refuted (an early or forged PAID) is
-- never a reason to drop the copies that follow: the genuine one may be
-- among them.
ALTER TABLE provider_events ADD COLUMN picked_at timestamptz;
ALTER TABLE provider_events ADD COLUMN borne_out boolean NOT NULL DEFAULT false;
CREATE INDEX provider_events_claim_idx ON provider_events (transaction_id, transaction_type, status, id);

-- +goose Down
DROP INDEX provider_events_claim_idx;
ALTER TABLE provider_events DROP COLUMN borne_out;
ALTER TABLE provider_events DROP COLUMN picked_at;
