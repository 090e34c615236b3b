-- +goose Up
-- What operators did by hand, and why: who, what, to which record, the
-- reason they gave, the ledger posting it made, and when. Rows are only
-- ever inserted, in the same SQL transaction as the change they record.
CREATE TABLE operator_actions (
    id                     bigserial   PRIMARY KEY,
    operator               text        NOT NULL CHECK (operator <> ''),
    action                 text        NOT NULL CHECK (action <> ''),
    resource_type          text        NOT NULL,
    resource_id            uuid        NOT NULL,
    reason                 text        NOT NULL CHECK (reason <> ''),
    ledger_transaction_id  bigint      REFERENCES ledger_transactions (id),
    created_at             timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX operator_actions_resource_idx ON operator_actions (resource_type, resource_id);

-- +goose Down
DROP TABLE operator_actions;
