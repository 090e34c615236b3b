-- +goose Up
-- The day an operator's float adjustment (pixgate provider adjust --date)
-- names: the money moved at the provider on that day outside any line of
-- its statement (a tariff, a deposit), so that day's reconciliation counts
-- it as a movement of the day, whenever it was posted. An adjustment that
-- names no day (the money the account held before PixGate's first
-- transaction) has no row: it corrects what PixGate expects the provider
-- to hold from when it was posted, and is no day's movement.
CREATE TABLE float_adjustment_days (
    transaction_id  bigint PRIMARY KEY REFERENCES ledger_transactions (id),
    day             date   NOT NULL
);
CREATE INDEX float_adjustment_days_day_idx ON float_adjustment_days (day);

-- +goose Down
DROP TABLE float_adjustment_days;
