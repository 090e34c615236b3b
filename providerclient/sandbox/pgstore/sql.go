package pgstore

import (
	"hash/fnv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/providerclient/sandbox"
)

// schemaSQL creates the schema and its tables, and brings a schema
// created by an earlier version up to date (MED infractions and returns,
// their three columns; due-date charges; recurrences, whose amount is 0
// when variable and whose terms are the recurrence column; recurrence
// cycles, whose attempts and outcome are the cycle column). It runs under
// the schema's lock, so two sandboxes starting at once never race on it.
// Only status, approved_at, expires_at, end_to_end_id, failure, paid_by,
// analysis, defense, return_id, recurrence and cycle change after a row is
// written, and amount for a due-date charge (what was paid); seq keeps
// creation order.
const schemaSQL = `
CREATE SCHEMA IF NOT EXISTS {s};
CREATE TABLE IF NOT EXISTS {s}.account (
	id        boolean PRIMARY KEY DEFAULT true CHECK (id),
	available bigint NOT NULL,
	pending   bigint NOT NULL CHECK (pending >= 0)
);
CREATE TABLE IF NOT EXISTS {s}.transactions (
	seq           bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
	id            text PRIMARY KEY,
	kind          text NOT NULL CHECK (kind IN ('RECEIVEPIX', 'PAYMENT', 'REFUND')),
	external_id   text NOT NULL,
	amount        bigint NOT NULL CHECK (amount > 0),
	status        text NOT NULL,
	description   text NOT NULL,
	postback_url  text NOT NULL,
	created_at    timestamptz NOT NULL,
	approved_at   timestamptz,
	expires_at    timestamptz,
	end_to_end_id text NOT NULL,
	failure       text NOT NULL,
	debtor        jsonb NOT NULL,
	paid_by       jsonb NOT NULL,
	qrcode        text NOT NULL,
	credit_party  jsonb NOT NULL,
	pix_id        text NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS transactions_external_id
	ON {s}.transactions (kind, external_id) WHERE external_id <> '';
ALTER TABLE {s}.transactions ADD COLUMN IF NOT EXISTS analysis text NOT NULL DEFAULT '';
ALTER TABLE {s}.transactions ADD COLUMN IF NOT EXISTS defense text NOT NULL DEFAULT '';
ALTER TABLE {s}.transactions ADD COLUMN IF NOT EXISTS return_id text NOT NULL DEFAULT '';
ALTER TABLE {s}.transactions DROP CONSTRAINT IF EXISTS transactions_kind_check;
ALTER TABLE {s}.transactions ADD CONSTRAINT transactions_kind_check
	CHECK (kind IN ('RECEIVEPIX', 'PAYMENT', 'REFUND', 'INFRACTION', 'MED_RETURN', 'RECURRENCE', 'RECURRENCE_CYCLE'));
ALTER TABLE {s}.transactions ADD COLUMN IF NOT EXISTS due jsonb;
ALTER TABLE {s}.transactions ADD COLUMN IF NOT EXISTS due_original bigint NOT NULL DEFAULT 0;
ALTER TABLE {s}.transactions ADD COLUMN IF NOT EXISTS recurrence jsonb;
ALTER TABLE {s}.transactions DROP CONSTRAINT IF EXISTS transactions_amount_check;
ALTER TABLE {s}.transactions ADD CONSTRAINT transactions_amount_check
	CHECK (amount > 0 OR (kind = 'RECURRENCE' AND amount = 0));
ALTER TABLE {s}.transactions ADD COLUMN IF NOT EXISTS cycle jsonb;
`

// lockSQL takes the schema's session lock, waiting up to lock_timeout;
// unlockSQL lets it go.
const (
	lockSQL   = `SELECT pg_advisory_lock($1)`
	unlockSQL = `SELECT pg_advisory_unlock($1)`
)

// lockKey is the advisory lock of a schema: advisory locks are per
// database, so the same schema name in another database is another lock.
func lockKey(schema string) int64 {
	h := fnv.New64a()
	h.Write([]byte("pixgate sandbox state\x00" + schema))
	return int64(h.Sum64())
}

const columns = `id, kind, external_id, amount, status, description, postback_url, created_at, approved_at,
	expires_at, end_to_end_id, failure, debtor, paid_by, qrcode, credit_party, pix_id, analysis, defense, return_id,
	due, due_original, recurrence, cycle`

const upsertAccount = `INSERT INTO {s}.account (id, available, pending) VALUES (true, $1, $2)
	ON CONFLICT (id) DO UPDATE SET available = EXCLUDED.available, pending = EXCLUDED.pending`

// queries are the statements with the schema's quoted name in place.
type queries struct {
	create, loadAccount, loadRecords, saveAccount, save string
}

func newQueries(schema string) queries {
	in := func(q string) string { return strings.ReplaceAll(q, "{s}", schema) }
	return queries{
		create:      in(schemaSQL),
		loadAccount: in(`SELECT available, pending FROM {s}.account`),
		loadRecords: in(`SELECT ` + columns + ` FROM {s}.transactions ORDER BY seq`),
		saveAccount: in(upsertAccount),
		// One statement, so the record and the balance are written together
		// in one round trip.
		save: in(`WITH account AS (` + upsertAccount + `)
			INSERT INTO {s}.transactions (` + columns + `)
			VALUES ($3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26)
			ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, amount = EXCLUDED.amount, approved_at = EXCLUDED.approved_at,
				expires_at = EXCLUDED.expires_at, end_to_end_id = EXCLUDED.end_to_end_id,
				failure = EXCLUDED.failure, paid_by = EXCLUDED.paid_by,
				analysis = EXCLUDED.analysis, defense = EXCLUDED.defense, return_id = EXCLUDED.return_id,
				recurrence = EXCLUDED.recurrence, cycle = EXCLUDED.cycle`),
	}
}

// recordArgs are rec's values in the order of columns.
func recordArgs(r *sandbox.Record) []any {
	return []any{r.ID, r.Kind, r.ExternalID, r.Amount, r.Status, r.Description, r.PostbackURL,
		r.Created, nullTime(r.Approved), nullTime(r.Expires), r.EndToEndID, r.Failure,
		r.Debtor, r.PaidBy, r.QRCode, r.CreditParty, r.PixID, r.Analysis, r.Defense, r.ReturnID,
		r.Due, r.DueOriginal, r.Recurrence, r.Cycle}
}

func scanRecord(row pgx.CollectableRow) (sandbox.Record, error) {
	var r sandbox.Record
	var approved, expires *time.Time
	err := row.Scan(&r.ID, &r.Kind, &r.ExternalID, &r.Amount, &r.Status, &r.Description, &r.PostbackURL,
		&r.Created, &approved, &expires, &r.EndToEndID, &r.Failure,
		&r.Debtor, &r.PaidBy, &r.QRCode, &r.CreditParty, &r.PixID, &r.Analysis, &r.Defense, &r.ReturnID,
		&r.Due, &r.DueOriginal, &r.Recurrence, &r.Cycle)
	if approved != nil {
		r.Approved = *approved
	}
	if expires != nil {
		r.Expires = *expires
	}
	return r, err
}

// nullTime stores the zero time as NULL.
func nullTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}
