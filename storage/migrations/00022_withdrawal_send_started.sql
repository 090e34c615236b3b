-- +goose Up
-- A withdrawal moves to the next provider of its route only on proof that
-- the one it records has no record of it. A refused connection is such a
-- proof only on the first send there: send_started says a send to the
-- recorded provider has begun (it may have reached it), and is cleared
-- when the withdrawal moves. Withdrawals that existed before may have been
-- sent: they count as started.
ALTER TABLE withdrawals ADD COLUMN send_started boolean NOT NULL DEFAULT true;
ALTER TABLE withdrawals ALTER COLUMN send_started SET DEFAULT false;

-- +goose Down
ALTER TABLE withdrawals DROP COLUMN send_started;
