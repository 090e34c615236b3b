package storage

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage/money"
)

// TransferAwaitingApproval is a withdrawal (or a batch) created by one key
// that waits, its money reserved and nothing sent, for a second key's
// approval (Approve*) or rejection (Reject*), or for its approval to
// expire. Only withdrawals and batches take it.
const TransferAwaitingApproval TransferStatus = "AWAITING_APPROVAL"

// ApprovalRule is an integrator's maker-checker setting: which of its
// withdrawals and batches wait for a second key's approval, and for how
// long before they are rejected as approval_expired.
type ApprovalRule struct {
	// Threshold: a withdrawal (its amount) or a batch (its total amount)
	// above it waits; nil when there is none.
	Threshold *money.Money
	// All: every withdrawal and batch waits, whatever its amount.
	All bool
	// Expiry is how long one waits before it is rejected.
	Expiry time.Duration
}

// Holds says whether a withdrawal or batch of amount waits for approval.
func (r ApprovalRule) Holds(amount money.Money) bool {
	return r.All || (r.Threshold != nil && amount > *r.Threshold)
}

// DefaultApprovalExpiry is how long an approval waits unless the
// integrator's setting says otherwise.
const DefaultApprovalExpiry = 24 * time.Hour

// MaxApprovalExpiry is the longest an approval may wait.
const MaxApprovalExpiry = 30 * 24 * time.Hour

// ErrInvalidApprovalExpiry: an expiry of zero or less, or above
// MaxApprovalExpiry.
var ErrInvalidApprovalExpiry = fmt.Errorf("the approval expiry must be above 0 and at most %v", MaxApprovalExpiry)

// Errors of the approval transitions.
var (
	// ErrNotAwaitingApproval: the withdrawal or batch is not (or no
	// longer) awaiting approval; it was approved, rejected or expired
	// first, or never waited.
	ErrNotAwaitingApproval = errors.New("not awaiting approval")
	// ErrSelfApproval: the key deciding is the key that created it.
	ErrSelfApproval = errors.New("the key that created it may not approve or reject it")
)

// SetApproval changes an integrator's approval rule. It applies to
// withdrawals and batches created from now on.
func (db *DB) SetApproval(ctx context.Context, integratorID int64, r ApprovalRule) (Integrator, error) {
	if r.Expiry <= 0 || r.Expiry > MaxApprovalExpiry {
		return Integrator{}, ErrInvalidApprovalExpiry
	}
	rows, _ := db.pool.Query(ctx, `UPDATE integrators SET approval_threshold = $2, approval_all = $3, approval_expiry = $4
		WHERE id = $1 RETURNING `+integratorColumns, integratorID, r.Threshold, r.All, r.Expiry)
	in, err := pgx.CollectExactlyOneRow(rows, scanIntegrator)
	return in, notFound(err)
}
