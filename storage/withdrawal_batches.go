package storage

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/money"
)

// A withdrawal batch is many withdrawals created at once, by one request,
// reserved by one posting (withdrawalBatchCreated) in one SQL transaction
// with every item's row: all of them or none. Each item is then an
// ordinary withdrawal naming its batch (Transfer.BatchID), sent, settled
// or failed on its own. The batch waits AWAITING_APPROVAL when its
// integrator's rule holds it (then so do its items, and nothing is sent),
// is PROCESSING while any item is, and COMPLETED once every item is
// COMPLETED or FAILED; REJECTED when rejected or expired before approval.

// Batch statuses.
const (
	BatchAwaitingApproval = "AWAITING_APPROVAL"
	BatchProcessing       = "PROCESSING"
	BatchCompleted        = "COMPLETED"
	BatchRejected         = "REJECTED"
)

// BatchStatuses are every batch status, in lifecycle order.
var BatchStatuses = []string{BatchAwaitingApproval, BatchProcessing, BatchCompleted, BatchRejected}

// WithdrawalBatch is a batch with its totals, counted from its items.
type WithdrawalBatch struct {
	ID           uuid.UUID
	IntegratorID int64
	ExternalID   string
	Status       string
	// Count, Amount and Fee are the items created with the batch: how many,
	// their amounts' and their fees' sums.
	Count       int
	Amount, Fee money.Money
	PostbackURL *string
	// RejectionReason is why a REJECTED batch was: "rejected: <reason>"
	// or approval_expired.
	RejectionReason   *string
	ApprovalExpiresAt *time.Time
	CreatedAt         time.Time
	UpdatedAt         time.Time
	FinishedAt        *time.Time
	// Items by status: how many, and their amounts' sum.
	Completed, Failed, Processing             int
	CompletedAmount, FailedAmount, InProgress money.Money
}

// NewWithdrawalBatch is a validated batch. Its items carry their own ids,
// hashes, fees and outbox messages (ignored while the batch awaits
// approval: ApproveBatch writes them then).
type NewWithdrawalBatch struct {
	ID           uuid.UUID
	IntegratorID int64
	ExternalID   string
	RequestHash  []byte
	PostbackURL  *string
	CreatedByKey int64
	// ApprovalExpiresAt, when set, holds the batch and its items
	// AWAITING_APPROVAL until then.
	ApprovalExpiresAt *time.Time
	Provider          string
	TraceParent       string
	Items             []NewWithdrawal
}

// BatchItemConflictError: items (their indexes in the batch) reuse the
// external_id of an earlier withdrawal made with a different request.
type BatchItemConflictError struct{ Items []int }

func (e *BatchItemConflictError) Error() string {
	return fmt.Sprintf("%d items reuse the external_id of an earlier withdrawal with a different request", len(e.Items))
}

// Is makes errors.Is(err, ErrIdempotencyConflict) true.
func (e *BatchItemConflictError) Is(target error) bool { return target == ErrIdempotencyConflict }

const batchColumns = `b.id, b.integrator_id, b.external_id, b.status, b.item_count, b.amount, b.fee, b.postback_url, b.rejection_reason,
	b.approval_expires_at, b.created_at, b.updated_at, b.finished_at,
	coalesce(t.completed, 0), coalesce(t.failed, 0), coalesce(t.processing, 0),
	coalesce(t.completed_amount, 0), coalesce(t.failed_amount, 0), coalesce(t.in_progress, 0)`

// batchTotalsJoin counts each batch's items by status.
const batchTotalsJoin = ` LEFT JOIN LATERAL (SELECT count(*) FILTER (WHERE w.status = 'COMPLETED') AS completed,
		count(*) FILTER (WHERE w.status = 'FAILED') AS failed,
		count(*) FILTER (WHERE w.status IN ('PROCESSING', 'AWAITING_APPROVAL')) AS processing,
		sum(w.amount) FILTER (WHERE w.status = 'COMPLETED') AS completed_amount,
		sum(w.amount) FILTER (WHERE w.status = 'FAILED') AS failed_amount,
		sum(w.amount) FILTER (WHERE w.status IN ('PROCESSING', 'AWAITING_APPROVAL')) AS in_progress
	FROM withdrawals w WHERE w.batch_id = b.id) t ON true`

func scanBatch(r pgx.CollectableRow) (WithdrawalBatch, error) {
	var b WithdrawalBatch
	err := r.Scan(&b.ID, &b.IntegratorID, &b.ExternalID, &b.Status, &b.Count, &b.Amount, &b.Fee, &b.PostbackURL, &b.RejectionReason,
		&b.ApprovalExpiresAt, &b.CreatedAt, &b.UpdatedAt, &b.FinishedAt,
		&b.Completed, &b.Failed, &b.Processing, &b.CompletedAmount, &b.FailedAmount, &b.InProgress)
	return b, err
}

// selectBatch reads one batch with its totals; where is a condition on b.
func selectBatch(ctx context.Context, q ledger.Querier, where string, args ...any) (WithdrawalBatch, error) {
	rows, _ := q.Query(ctx, `SELECT `+batchColumns+` FROM withdrawal_batches b`+batchTotalsJoin+` WHERE `+where, args...)
	b, err := pgx.CollectExactlyOneRow(rows, scanBatch)
	return b, notFound(err)
}

// WithdrawalBatchByID returns the integrator's batch by id, or by
// external_id when ref is not a UUID.
func (db *DB) WithdrawalBatchByID(ctx context.Context, integratorID int64, ref string) (WithdrawalBatch, error) {
	if id, err := uuid.Parse(ref); err == nil {
		return selectBatch(ctx, db.pool, `b.integrator_id = $1 AND b.id = $2`, integratorID, id)
	}
	return selectBatch(ctx, db.pool, `b.integrator_id = $1 AND b.external_id = $2`, integratorID, ref)
}

// errBatchTaken: the batch's external_id is taken (a replay or a
// conflict, told apart by replayedBatch).
var errBatchTaken = errors.New("storage: batch external_id taken")

// CreateWithdrawalBatch creates the batch and its items in one SQL
// transaction: the batch's row, every item's row (one INSERT of arrays),
// one posting reserving the items' amounts + fees, and, unless the batch
// awaits approval, every item's send in the outbox. It writes nothing
// when the wallet does not cover them all (ledger.ErrInsufficientFunds).
//
// It is idempotent: the same external_id with the same request
// (RequestHash) answers the batch it created (created false); with
// another request, ErrIdempotencyConflict. Item by item: an item whose
// external_id an earlier withdrawal holds, made with the same request, is
// that withdrawal, not created again nor reserved, and not an item of
// this batch; with another request it is a *BatchItemConflictError
// naming every such item, and nothing is written.
func (db *DB) CreateWithdrawalBatch(ctx context.Context, nb NewWithdrawalBatch) (WithdrawalBatch, bool, error) {
	status := BatchProcessing
	if nb.ApprovalExpiresAt != nil {
		status = BatchAwaitingApproval
	}
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `INSERT INTO withdrawal_batches (id, integrator_id, external_id, request_hash, status, item_count, amount, fee,
				postback_url, created_by_key, approval_expires_at)
			VALUES ($1, $2, $3, $4, $5, 0, 0, 0, $6, nullif($7::bigint, 0), $8)
			ON CONFLICT (integrator_id, external_id) DO NOTHING`,
			nb.ID, nb.IntegratorID, nb.ExternalID, nb.RequestHash, status, nb.PostbackURL, nb.CreatedByKey, nb.ApprovalExpiresAt)
		if err != nil {
			return fmt.Errorf("storage: create batch: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return errBatchTaken
		}
		items, err := newItems(ctx, tx, nb)
		if err != nil {
			return err
		}
		var amount, fee money.Money
		for _, it := range items {
			amount, fee = amount+it.Amount, fee+it.Fee
		}
		if err := insertItems(ctx, tx, nb, items); err != nil {
			return err
		}
		if amount+fee > 0 {
			if _, err := ledger.Post(ctx, tx, withdrawalBatchCreated(nb.ID, nb.IntegratorID, amount+fee)); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, `UPDATE withdrawal_batches SET item_count = $2, amount = $3, fee = $4 WHERE id = $1`,
			nb.ID, len(items), amount, fee); err != nil {
			return fmt.Errorf("storage: create batch: %w", err)
		}
		if status == BatchProcessing {
			return writeOutboxes(ctx, tx, itemSends(items))
		}
		return nil
	})
	switch {
	case errors.Is(err, errBatchTaken):
		return replayedBatch(ctx, db.pool, nb)
	case err != nil && !ledger.IsRefusal(err) && !errors.Is(err, ErrIdempotencyConflict):
		return WithdrawalBatch{}, false, fmt.Errorf("storage: create batch: %w", err)
	case err != nil:
		return WithdrawalBatch{}, false, err
	}
	b, err := selectBatch(ctx, db.pool, `b.id = $1`, nb.ID)
	return b, err == nil, err
}

// replayedBatch answers a batch whose external_id is taken: the batch when
// the request is the same, ErrIdempotencyConflict otherwise.
func replayedBatch(ctx context.Context, q ledger.Querier, nb NewWithdrawalBatch) (WithdrawalBatch, bool, error) {
	var stored []byte
	if err := q.QueryRow(ctx, `SELECT request_hash FROM withdrawal_batches WHERE integrator_id = $1 AND external_id = $2`,
		nb.IntegratorID, nb.ExternalID).Scan(&stored); err != nil {
		return WithdrawalBatch{}, false, fmt.Errorf("storage: replayed batch: %w", err)
	}
	if !bytes.Equal(stored, nb.RequestHash) {
		return WithdrawalBatch{}, false, ErrIdempotencyConflict
	}
	b, err := selectBatch(ctx, q, `b.integrator_id = $1 AND b.external_id = $2`, nb.IntegratorID, nb.ExternalID)
	return b, false, err
}

// newItems are the batch's items but those an earlier withdrawal already
// is (same external_id, same request); a *BatchItemConflictError when
// any reuses one with another request.
func newItems(ctx context.Context, tx pgx.Tx, nb NewWithdrawalBatch) ([]NewWithdrawal, error) {
	var ext []string
	for _, it := range nb.Items {
		if it.ExternalID != nil {
			ext = append(ext, *it.ExternalID)
		}
	}
	hashes := map[string][]byte{}
	if len(ext) > 0 {
		rows, _ := tx.Query(ctx, `SELECT external_id, request_hash FROM withdrawals WHERE integrator_id = $1 AND external_id = ANY($2)`,
			nb.IntegratorID, ext)
		var (
			e string
			h []byte
		)
		if _, err := pgx.ForEachRow(rows, []any{&e, &h}, func() error { hashes[e] = h; return nil }); err != nil {
			return nil, fmt.Errorf("storage: batch items taken: %w", err)
		}
	}
	items := make([]NewWithdrawal, 0, len(nb.Items))
	var conflict BatchItemConflictError
	for i, it := range nb.Items {
		if it.ExternalID == nil {
			items = append(items, it)
			continue
		}
		h, taken := hashes[*it.ExternalID]
		switch {
		case !taken:
			items = append(items, it)
		case !bytes.Equal(h, it.RequestHash):
			conflict.Items = append(conflict.Items, i)
		}
	}
	if len(conflict.Items) > 0 {
		return nil, &conflict
	}
	return items, nil
}

// insertItems writes every item's row in one statement.
func insertItems(ctx context.Context, tx pgx.Tx, nb NewWithdrawalBatch, items []NewWithdrawal) error {
	n := len(items)
	var (
		ids                           = make([]uuid.UUID, n)
		ext, desc, urls               = make([]*string, n), make([]*string, n), make([]*string, n)
		hashes                        = make([][]byte, n)
		amounts, fees                 = make([]int64, n), make([]int64, n)
		names, keyTypes, keys, taxIDs = make([]string, n), make([]string, n), make([]string, n), make([]string, n)
		due, near                     = make([]*time.Time, n), make([]*time.Time, n)
	)
	for i, it := range items {
		ids[i], ext[i], hashes[i], amounts[i], fees[i] = it.ID, it.ExternalID, it.RequestHash, int64(it.Amount), int64(it.Fee)
		names[i], keyTypes[i], keys[i], taxIDs[i] = it.CreditParty.Name, it.CreditParty.KeyType, it.CreditParty.Key, it.CreditParty.TaxID
		desc[i], urls[i], due[i], near[i] = it.Description, it.PostbackURL, it.DueAt, nearAt(it.DueAt)
	}
	status := string(TransferProcessing)
	if nb.ApprovalExpiresAt != nil {
		status = string(TransferAwaitingApproval)
	}
	_, err := tx.Exec(ctx, `INSERT INTO withdrawals (id, integrator_id, external_id, request_hash, amount, fee, status,
			credit_party_name, credit_party_key_type, credit_party_key, credit_party_tax_id, description, postback_url, provider, trace_parent,
			created_by_key, approval_expires_at, batch_id, due_at, due_near_at)
		SELECT u.id, $1, u.ext, u.hash, u.amount, u.fee, $2, u.name, u.key_type, u.key, u.tax_id, u.description, u.url,
			coalesce(nullif($3::text, ''), 'default'), nullif($4::text, ''), nullif($5::bigint, 0), $6::timestamptz, $7::uuid, u.due, u.near
		FROM unnest($8::uuid[], $9::text[], $10::bytea[], $11::bigint[], $12::bigint[], $13::text[], $14::text[], $15::text[], $16::text[],
			$17::text[], $18::text[], $19::timestamptz[], $20::timestamptz[]) AS u(id, ext, hash, amount, fee, name, key_type, key, tax_id, description, url, due, near)`,
		nb.IntegratorID, status, nb.Provider, nb.TraceParent, nb.CreatedByKey, nb.ApprovalExpiresAt, nb.ID,
		ids, ext, hashes, amounts, fees, names, keyTypes, keys, taxIDs, desc, urls, due, near)
	if isUniqueViolation(err) { // an item's external_id taken meanwhile by a concurrent create
		return ErrIdempotencyConflict
	}
	if err != nil {
		return fmt.Errorf("storage: create batch items: %w", err)
	}
	return nil
}

// itemSends are the items' outbox messages.
func itemSends(items []NewWithdrawal) []OutboxMessage {
	msgs := make([]OutboxMessage, 0, len(items))
	for _, it := range items {
		msgs = append(msgs, it.Outbox...)
	}
	return msgs
}

// writeOutboxes writes many outbox messages in one statement.
func writeOutboxes(ctx context.Context, tx pgx.Tx, msgs []OutboxMessage) error {
	if len(msgs) == 0 {
		return nil
	}
	types, ids, payloads := outboxColumns(msgs)
	if _, err := tx.Exec(ctx, `INSERT INTO outbox (task_type, task_id, payload)
		SELECT m.task_type, m.task_id, m.payload::jsonb FROM unnest($1::text[], $2::text[], $3::text[]) AS m(task_type, task_id, payload)
		ON CONFLICT (task_id) DO NOTHING`, types, ids, payloads); err != nil {
		return fmt.Errorf("storage: outbox: %w", err)
	}
	markOutbox(tx, msgs...)
	return nil
}

// isUniqueViolation: the statement hit a unique constraint.
func isUniqueViolation(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505"
}
