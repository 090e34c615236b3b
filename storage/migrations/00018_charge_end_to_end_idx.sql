-- +goose Up
-- A provider that reports MED infractions by the end-to-end id of the
-- disputed PIX (the BCB API Pix, Efí) names the charge that way: the
-- worker finds it by this index.
CREATE INDEX charges_end_to_end_idx ON charges (end_to_end_id) WHERE end_to_end_id IS NOT NULL;

-- +goose Down
DROP INDEX charges_end_to_end_idx;
