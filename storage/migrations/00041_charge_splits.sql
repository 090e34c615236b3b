-- +goose Up
-- What a paid split charge credited each of its recipients (sub-accounts
-- of the charge's integrator), written in the transaction of its
-- charge.paid posting, and what refunds and MED returns have taken back of
-- it (reversed, never more than credited).
CREATE TABLE charge_splits (
    charge_id    uuid NOT NULL REFERENCES charges (id),
    recipient_id bigint NOT NULL REFERENCES integrators (id),
    credited     bigint NOT NULL CHECK (credited >= 0),
    reversed     bigint NOT NULL DEFAULT 0 CHECK (reversed >= 0 AND reversed <= credited),
    PRIMARY KEY (charge_id, recipient_id)
);
CREATE INDEX charge_splits_recipient_idx ON charge_splits (recipient_id);

-- What one refund or MED return took back from one recipient, so that a
-- failed one gives it back to that recipient.
CREATE TABLE split_reversals (
    transfer_id  uuid NOT NULL,
    charge_id    uuid NOT NULL REFERENCES charges (id),
    recipient_id bigint NOT NULL REFERENCES integrators (id),
    amount       bigint NOT NULL CHECK (amount > 0),
    PRIMARY KEY (transfer_id, recipient_id)
);

-- +goose Down
DROP TABLE split_reversals;
DROP TABLE charge_splits;
