-- +goose Up
-- sending counts the sends of a withdrawal begun and not yet ended: a
-- withdrawal moves to the next provider only when none is in flight at the
-- one it records (an earlier send may yet reach it). A send whose process
-- died never ends, and the withdrawal then stays where it is.
ALTER TABLE withdrawals ADD COLUMN sending integer NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE withdrawals DROP COLUMN sending;
