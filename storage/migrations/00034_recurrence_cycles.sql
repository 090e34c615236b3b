-- +goose Up
-- recurrence_cycles and recurrence_attempts: the cycles of a Pix Automático
-- recurrence and their attempts at settlement (docs/recurrences.md). The
-- reconciler's tick writes each cycle SCHEDULED on the day its charge is
-- to be sent, once per (recurrence, n) however many ticks see it; sent and
-- accepted, the cycle is CREATED together with its charges row (charge_id),
-- whose charge.paid posting credits the cycle's payment once. Attempts are
-- the provider's, recorded as read; one is open at a time.
ALTER TABLE recurrences ADD COLUMN next_cycle integer, ADD COLUMN next_send_on date;
CREATE INDEX recurrences_schedule_idx ON recurrences (next_send_on) WHERE status = 'APPROVED';

CREATE TABLE recurrence_cycles (
    id             uuid        PRIMARY KEY,
    recurrence_id  uuid        NOT NULL REFERENCES recurrences (id),
    n              integer     NOT NULL CHECK (n >= 0),
    due_date       date        NOT NULL,
    amount         bigint      NOT NULL CHECK (amount > 0),
    status         text        NOT NULL CHECK (status IN ('SCHEDULED', 'CREATED', 'ACTIVE', 'PAID', 'EXPIRED', 'REJECTED', 'CANCELLED', 'FAILED')),
    charge_id      uuid        UNIQUE REFERENCES charges (id),
    provider_id    text,
    send_on        date        NOT NULL,
    retries        integer     NOT NULL DEFAULT 0,
    rejection_code text,
    cancelled_by   text,
    failure_reason text,
    end_to_end_id  text,
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    paid_at        timestamptz,
    UNIQUE (recurrence_id, n)
);
-- The reconciler's: cycles to send, and cycles whose outcome is awaited.
CREATE INDEX recurrence_cycles_send_idx ON recurrence_cycles (send_on) WHERE status = 'SCHEDULED';
CREATE INDEX recurrence_cycles_open_idx ON recurrence_cycles (updated_at) WHERE status IN ('CREATED', 'ACTIVE');
CREATE INDEX recurrence_cycles_provider_idx ON recurrence_cycles (provider_id) WHERE provider_id IS NOT NULL;

CREATE TABLE recurrence_attempts (
    id             uuid        PRIMARY KEY,
    cycle_id       uuid        NOT NULL REFERENCES recurrence_cycles (id),
    seq            integer     NOT NULL CHECK (seq >= 0),
    kind           text        NOT NULL,
    settle_on      date        NOT NULL,
    status         text        NOT NULL CHECK (status IN ('REQUESTED', 'SCHEDULED', 'PAID', 'REJECTED', 'EXPIRED', 'CANCELLED')),
    end_to_end_id  text,
    rejection_code text,
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    UNIQUE (cycle_id, seq)
);

ALTER TABLE postbacks DROP CONSTRAINT postbacks_resource_type_check;
ALTER TABLE postbacks ADD CONSTRAINT postbacks_resource_type_check
    CHECK (resource_type IN ('charge', 'withdrawal', 'refund', 'med_return', 'infraction', 'recurrence',
                             'recurrence_cycle', 'recurrence_attempt'));

-- +goose Down
ALTER TABLE postbacks DROP CONSTRAINT postbacks_resource_type_check;
ALTER TABLE postbacks ADD CONSTRAINT postbacks_resource_type_check
    CHECK (resource_type IN ('charge', 'withdrawal', 'refund', 'med_return', 'infraction', 'recurrence'));
DROP TABLE recurrence_attempts;
DROP TABLE recurrence_cycles;
DROP INDEX recurrences_schedule_idx;
ALTER TABLE recurrences DROP COLUMN next_cycle, DROP COLUMN next_send_on;
