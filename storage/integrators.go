package storage

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/money"
)

// Integrator is a customer of PixGate with its fee rules.
type Integrator struct {
	ID      int64
	Name    string
	Email   string
	CashIn  money.FeeRule
	CashOut money.FeeRule
	// CashInHold is how long the net of a paid charge stays pending before
	// it becomes available; zero credits it at once.
	CashInHold time.Duration
	// WebhookSecret signs postbacks (Standard Webhooks, "whsec_" + base64).
	WebhookSecret string
	CreatedAt     time.Time
	// SameHolder: charges are taken only from the payer's own account and
	// withdrawals paid only to the recipient's own key (set with
	// SetSameHolder).
	SameHolder bool
	// ParentID is the integrator a sub-account belongs to; nil for an
	// integrator that is not a sub-account.
	ParentID *int64
	// PayoutDeadline is how long after its creation each of its new
	// withdrawals is due (its due_at), zero none (set with
	// SetPayoutDeadline; see DueAt).
	PayoutDeadline time.Duration
	// Approval says which of its withdrawals wait for a second key's
	// approval (SetApproval); loaded with the integrator at authentication,
	// so the create path reads it for free.
	Approval ApprovalRule
}

// NewIntegrator describes an integrator to create.
type NewIntegrator struct {
	Name    string
	Email   string
	CashIn  money.FeeRule
	CashOut money.FeeRule
	// CashInHold is the settlement hold (0 to MaxCashInHold).
	CashInHold time.Duration
	// ParentID makes it a sub-account of that integrator, which must exist
	// and not be a sub-account itself (ErrNotAParent).
	ParentID *int64
}

// ErrEmailTaken is returned when another integrator has the e-mail address.
var ErrEmailTaken = errors.New("an integrator with this e-mail already exists")

// CreateIntegrator creates an integrator, its ledger accounts and a first API
// key with every scope, in one transaction.
func (db *DB) CreateIntegrator(ctx context.Context, ni NewIntegrator) (Integrator, Credentials, error) {
	in := Integrator{Name: ni.Name, Email: ni.Email, CashIn: ni.CashIn, CashOut: ni.CashOut, CashInHold: ni.CashInHold, Approval: ApprovalRule{Expiry: DefaultApprovalExpiry},
		WebhookSecret: "whsec_" + base64.StdEncoding.EncodeToString(randomBytes(24)), ParentID: ni.ParentID}
	var creds Credentials
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		if ni.ParentID != nil {
			if err := checkParent(ctx, tx, *ni.ParentID); err != nil {
				return err
			}
		}
		err := tx.QueryRow(ctx, `INSERT INTO integrators
			(name, email, cashin_fee_kind, cashin_fee_value, cashout_fee_kind, cashout_fee_value, webhook_secret, cashin_hold, parent_integrator_id)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id, created_at`,
			in.Name, in.Email, in.CashIn.Kind, feeValue(in.CashIn), in.CashOut.Kind, feeValue(in.CashOut), in.WebhookSecret, in.CashInHold,
			ni.ParentID,
		).Scan(&in.ID, &in.CreatedAt)
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) && pgErr.Code == "23505" {
			return ErrEmailTaken
		}
		if err != nil {
			return fmt.Errorf("storage: create integrator: %w", err)
		}
		for _, k := range ledger.IntegratorKinds {
			if _, err := tx.Exec(ctx, `INSERT INTO ledger_accounts (integrator_id, kind, allow_negative) VALUES ($1, $2, $3)`,
				in.ID, k, ledger.MayGoNegative(k)); err != nil {
				return fmt.Errorf("storage: create %s account: %w", k, err)
			}
		}
		_, creds, err = createKey(ctx, tx, NewKey{IntegratorID: in.ID})
		return err
	})
	if err != nil {
		return Integrator{}, Credentials{}, err
	}
	return in, creds, nil
}

const integratorColumns = `id, name, email, cashin_fee_kind, cashin_fee_value, cashout_fee_kind, cashout_fee_value, webhook_secret, created_at, cashin_hold,
	same_holder, parent_integrator_id, coalesce(payout_deadline, interval '0'), approval_threshold, approval_all, approval_expiry`

// Integrator returns one integrator by id.
func (db *DB) Integrator(ctx context.Context, id int64) (Integrator, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+integratorColumns+` FROM integrators WHERE id = $1`, id)
	in, err := pgx.CollectExactlyOneRow(rows, scanIntegrator)
	if err != nil {
		return Integrator{}, notFound(err)
	}
	return in, nil
}

// ListIntegrators returns every integrator, oldest first.
func (db *DB) ListIntegrators(ctx context.Context) ([]Integrator, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+integratorColumns+` FROM integrators ORDER BY id`)
	list, err := pgx.CollectRows(rows, scanIntegrator)
	if err != nil {
		return nil, fmt.Errorf("storage: list integrators: %w", err)
	}
	return list, nil
}

func scanIntegrator(r pgx.CollectableRow) (Integrator, error) {
	var (
		in                  Integrator
		cinKind, coutKind   string
		cinValue, coutValue int64
	)
	err := r.Scan(&in.ID, &in.Name, &in.Email, &cinKind, &cinValue, &coutKind, &coutValue, &in.WebhookSecret, &in.CreatedAt, &in.CashInHold,
		&in.SameHolder, &in.ParentID, &in.PayoutDeadline, &in.Approval.Threshold, &in.Approval.All, &in.Approval.Expiry)
	in.CashIn = feeRule(cinKind, cinValue)
	in.CashOut = feeRule(coutKind, coutValue)
	return in, err
}

// Fee rules are stored as a kind and one integer: parts per million for
// percent rules, centavos for fixed rules.
func feeValue(r money.FeeRule) int64 {
	if r.Kind == money.FeeFixed {
		return int64(r.Fixed)
	}
	return r.PPM
}

func feeRule(kind string, value int64) money.FeeRule {
	if money.FeeKind(kind) == money.FeeFixed {
		return money.Fixed(money.Money(value))
	}
	return money.Percent(value)
}

// IntegratorByEmail returns the integrator with the e-mail address (compared
// case-insensitively).
func (db *DB) IntegratorByEmail(ctx context.Context, email string) (Integrator, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+integratorColumns+` FROM integrators WHERE lower(email) = lower($1)`, email)
	in, err := pgx.CollectExactlyOneRow(rows, scanIntegrator)
	if err != nil {
		return Integrator{}, notFound(err)
	}
	return in, nil
}

// SetSameHolder turns the integrator's same-holder rule on or off. It
// applies to payments confirmed and withdrawals created from now on.
func (db *DB) SetSameHolder(ctx context.Context, integratorID int64, on bool) (Integrator, error) {
	rows, _ := db.pool.Query(ctx, `UPDATE integrators SET same_holder = $2 WHERE id = $1 RETURNING `+integratorColumns, integratorID, on)
	in, err := pgx.CollectExactlyOneRow(rows, scanIntegrator)
	return in, notFound(err)
}
