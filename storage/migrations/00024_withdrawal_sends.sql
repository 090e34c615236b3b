-- +goose Up
-- Two sends of one withdrawal may run at once (a redriven send beside a
-- retried one), so "a send has begun" is not enough to move it: a move on
-- one send's proof must find no other send begun at the same provider
-- since. sends counts the sends begun at the provider the withdrawal
-- records (0 again when it moves); a move names the send whose proof it
-- rests on. Withdrawals that may have been sent count one send.
ALTER TABLE withdrawals ADD COLUMN sends integer NOT NULL DEFAULT 1;
ALTER TABLE withdrawals ALTER COLUMN sends SET DEFAULT 0;
UPDATE withdrawals SET sends = 0 WHERE NOT send_started AND status = 'PROCESSING';
ALTER TABLE withdrawals DROP COLUMN send_started;

-- +goose Down
ALTER TABLE withdrawals ADD COLUMN send_started boolean NOT NULL DEFAULT true;
ALTER TABLE withdrawals ALTER COLUMN send_started SET DEFAULT false;
UPDATE withdrawals SET send_started = false WHERE sends = 0 AND status = 'PROCESSING';
ALTER TABLE withdrawals DROP COLUMN sends;
