package storage

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage/money"
)

// Refund statuses are the withdrawal ones: PROCESSING, COMPLETED, FAILED.

// Refund returns money of a paid charge to its payer, from the integrator's
// wallet, like a withdrawal.
type Refund struct {
	ID            uuid.UUID
	IntegratorID  int64
	ChargeID      uuid.UUID
	ExternalID    *string
	Amount        money.Money
	Fee           money.Money
	Status        string
	Description   *string
	PostbackURL   *string
	PixID         *string // the provider's transactionId; integrators know the refund by PublicPixID
	EndToEndID    *string
	FailureReason *string
	FromPending   money.Money // of the reservation, taken from the charge's held net in pending
	CreatedAt     time.Time
	UpdatedAt     time.Time
	FinishedAt    *time.Time
}

const refundColumns = `id, integrator_id, charge_id, external_id, amount, fee, status, description, postback_url,
	pix_id, end_to_end_id, failure_reason, created_at, updated_at, finished_at, from_pending`

func scanRefund(r pgx.CollectableRow) (Refund, error) {
	var f Refund
	err := r.Scan(&f.ID, &f.IntegratorID, &f.ChargeID, &f.ExternalID, &f.Amount, &f.Fee, &f.Status, &f.Description, &f.PostbackURL,
		&f.PixID, &f.EndToEndID, &f.FailureReason, &f.CreatedAt, &f.UpdatedAt, &f.FinishedAt, &f.FromPending)
	return f, err
}

// RefundByID returns a refund by id, whoever owns it (for workers).
func (db *DB) RefundByID(ctx context.Context, id uuid.UUID) (Refund, error) {
	return getByID(ctx, db.pool, "refunds", refundColumns, scanRefund, id)
}

// RefundByPixID returns the refund the provider knows as pixID.
func (db *DB) RefundByPixID(ctx context.Context, pixID string) (Refund, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+refundColumns+` FROM refunds WHERE pix_id = $1`, pixID)
	f, err := pgx.CollectExactlyOneRow(rows, scanRefund)
	return f, notFound(err)
}
