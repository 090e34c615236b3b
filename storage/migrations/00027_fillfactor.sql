-- +goose Up
-- Room in each page for an updated row's new version, so that the updates
-- that change no indexed column are HOT (heap-only: no new entry in any of
-- the table's indexes): a withdrawal's send claim (sends, sending) and a
-- notification's pick (picked_at). With full pages each of those wrote an
-- entry into every index, nine for a withdrawal. It applies to pages
-- written from now on.
ALTER TABLE withdrawals SET (fillfactor = 80);
ALTER TABLE provider_events SET (fillfactor = 80);

-- +goose Down
ALTER TABLE withdrawals RESET (fillfactor);
ALTER TABLE provider_events RESET (fillfactor);
