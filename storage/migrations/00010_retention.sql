-- +goose Up
-- What retention deletes, oldest first: processed notifications and outbox
-- rows already handed to the queue.
CREATE INDEX provider_events_processed_idx ON provider_events (processed_at) WHERE processed_at IS NOT NULL;
CREATE INDEX outbox_sent_idx ON outbox (enqueued_at) WHERE enqueued_at IS NOT NULL;

-- +goose Down
DROP INDEX outbox_sent_idx;
DROP INDEX provider_events_processed_idx;
