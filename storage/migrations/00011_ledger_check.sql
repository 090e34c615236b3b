-- +goose Up
-- ledger_check lets one SQL statement refuse a posting: Go's ledger.Post
-- (and statements that compose a posting with other writes) lock the
-- accounts, compute the new balances and write the entries in a single
-- statement, and call ledger_check between the lock and the writes. It
-- raises, undoing the whole statement, when an account that may not go
-- negative would (SQLSTATE PX001, DETAIL 'integrator|kind|balance|debit')
-- or an account does not exist (PX002, DETAIL 'integrator|kind').

-- +goose StatementBegin
CREATE FUNCTION ledger_check(p_overdraft text, p_missing text) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
    IF p_overdraft IS NOT NULL THEN
        RAISE EXCEPTION 'insufficient funds' USING ERRCODE = 'PX001', DETAIL = p_overdraft;
    END IF;
    IF p_missing IS NOT NULL THEN
        RAISE EXCEPTION 'unknown account' USING ERRCODE = 'PX002', DETAIL = p_missing;
    END IF;
    RETURN true;
END
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION ledger_check(text, text);
