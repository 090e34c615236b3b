package storage

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/money"
)

// An infraction is a MED dispute (the Banco Central's Mecanismo Especial
// de Devolução) over the PIX that paid one of an integrator's charges, as
// its provider reports it. While it is open, the money it disputes is
// blocked (infraction_transitions.go); it closes once, agreed (the blocked
// money leaves as a MED return), disagreed or cancelled (released).

// Infraction is one MED dispute.
type Infraction struct {
	ID           uuid.UUID
	IntegratorID int64
	ChargeID     uuid.UUID
	// ChargePixID is the disputed charge's pix_id.
	ChargePixID string
	// ProviderID is the provider's id of the infraction.
	ProviderID string
	// Amount is what the payer disputes; Blocked what PixGate blocked of
	// it when it arrived, FromPending of that from the charge's held net.
	Amount      money.Money
	Blocked     money.Money
	FromPending money.Money
	Status      InfractionStatus
	// Reason is the payer's report, Analysis the provider's words on
	// closing it, as the provider gave them.
	Reason     *string
	Analysis   *string
	ReportedAt *time.Time
	// DueAt is when the analysis (and a defense) is due.
	DueAt *time.Time
	// Defense is the integrator's, DefenseForwarded whether it reached the
	// provider (one that takes no defenses only keeps it here).
	Defense          *string
	DefendedAt       *time.Time
	DefenseForwarded bool
	// MedReturnID is the MED return of an agreed infraction: what the
	// provider returned to the payer.
	MedReturnID *uuid.UUID
	CreatedAt   time.Time
	UpdatedAt   time.Time
	ClosedAt    *time.Time
}

// Shortfall is what the integrator's balances did not cover when the
// infraction arrived: it was never blocked, and no balance went negative
// for it.
func (i Infraction) Shortfall() money.Money { return i.Amount - i.Blocked }

const infractionColumns = `id, integrator_id, charge_id,
	coalesce((SELECT c.pix_id FROM charges c WHERE c.id = infractions.charge_id), ''), provider_id,
	amount, blocked_amount, from_pending, status, reason, analysis, reported_at, due_at,
	defense, defended_at, defense_forwarded, med_return_id, created_at, updated_at, closed_at`

func scanInfraction(r pgx.CollectableRow) (Infraction, error) {
	var i Infraction
	err := r.Scan(&i.ID, &i.IntegratorID, &i.ChargeID, &i.ChargePixID, &i.ProviderID,
		&i.Amount, &i.Blocked, &i.FromPending, &i.Status, &i.Reason, &i.Analysis, &i.ReportedAt, &i.DueAt,
		&i.Defense, &i.DefendedAt, &i.DefenseForwarded, &i.MedReturnID, &i.CreatedAt, &i.UpdatedAt, &i.ClosedAt)
	return i, err
}

func selectInfraction(ctx context.Context, q ledger.Querier, where string, args ...any) (Infraction, error) {
	rows, _ := q.Query(ctx, `SELECT `+infractionColumns+` FROM infractions WHERE `+where, args...)
	i, err := pgx.CollectExactlyOneRow(rows, scanInfraction)
	return i, notFound(err)
}

// Infraction returns one of the integrator's infractions by id; another
// integrator's is ErrNotFound.
func (db *DB) Infraction(ctx context.Context, integratorID int64, id uuid.UUID) (Infraction, error) {
	return selectInfraction(ctx, db.pool, `integrator_id = $1 AND id = $2`, integratorID, id)
}

// InfractionByID returns an infraction whoever owns it (for workers).
func (db *DB) InfractionByID(ctx context.Context, id uuid.UUID) (Infraction, error) {
	return selectInfraction(ctx, db.pool, `id = $1`, id)
}

// InfractionOf returns the infraction the provider knows as providerID on
// the charge.
func (db *DB) InfractionOf(ctx context.Context, chargeID uuid.UUID, providerID string) (Infraction, error) {
	return selectInfraction(ctx, db.pool, `charge_id = $1 AND provider_id = $2`, chargeID, providerID)
}

// InfractionOfReturn returns the infraction whose MED return is retID.
func (db *DB) InfractionOfReturn(ctx context.Context, retID uuid.UUID) (Infraction, error) {
	return selectInfraction(ctx, db.pool, `id = (SELECT infraction_id FROM med_returns WHERE id = $1)`, retID)
}

// ListInfractions returns one page of the integrator's infractions, newest
// first, and whether more follow.
func (db *DB) ListInfractions(ctx context.Context, p ListParams) ([]Infraction, bool, error) {
	return list(ctx, db, `SELECT `+infractionColumns+` FROM infractions`, scanInfraction, p)
}

// StaleInfractions returns open infractions not looked at for olderThan,
// least recently touched first: the reconciler asks the provider about
// them, so that a close whose notification was lost is still applied.
func (db *DB) StaleInfractions(ctx context.Context, olderThan time.Duration, limit int) ([]Infraction, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+infractionColumns+` FROM infractions
		WHERE status = 'OPEN' AND updated_at < now() - $1::interval ORDER BY updated_at LIMIT $2`, olderThan, limit)
	return pgx.CollectRows(rows, scanInfraction)
}

// TouchInfraction moves an open infraction to the back of the stale queue.
func (db *DB) TouchInfraction(ctx context.Context, id uuid.UUID) error {
	_, err := db.pool.Exec(ctx, `UPDATE infractions SET updated_at = now() WHERE id = $1 AND status = 'OPEN'`, id)
	return err
}

// Errors of a defense.
var (
	// ErrInfractionClosed: the infraction is no longer open.
	ErrInfractionClosed = errors.New("the infraction is closed")
	// ErrDefenseExists: the infraction already has a defense.
	ErrDefenseExists = errors.New("the infraction already has a defense")
)

// ClaimDefense records the integrator's defense of an open infraction that
// has none yet, not forwarded: the claim that makes concurrent defenses of
// one infraction reach the provider once. It fails with ErrNotFound,
// ErrInfractionClosed or ErrDefenseExists, writing nothing.
func (db *DB) ClaimDefense(ctx context.Context, integratorID int64, id uuid.UUID, text string) (Infraction, error) {
	rows, _ := db.pool.Query(ctx, `UPDATE infractions SET defense = $3, defended_at = now(), updated_at = now()
		WHERE integrator_id = $1 AND id = $2 AND status = 'OPEN' AND defense IS NULL RETURNING `+infractionColumns, integratorID, id, text)
	i, err := pgx.CollectExactlyOneRow(rows, scanInfraction)
	if !errors.Is(err, pgx.ErrNoRows) {
		return i, err
	}
	i, err = db.Infraction(ctx, integratorID, id)
	switch {
	case err != nil:
		return i, err
	case i.Status != InfractionOpen:
		return i, ErrInfractionClosed
	default:
		return i, ErrDefenseExists
	}
}

// ForwardedDefense marks a claimed defense as received by the provider.
func (db *DB) ForwardedDefense(ctx context.Context, id uuid.UUID) (Infraction, error) {
	rows, _ := db.pool.Query(ctx, `UPDATE infractions SET defense_forwarded = true, updated_at = now()
		WHERE id = $1 AND defense IS NOT NULL RETURNING `+infractionColumns, id)
	i, err := pgx.CollectExactlyOneRow(rows, scanInfraction)
	return i, notFound(err)
}

// DropDefense undoes a claim the provider refused or never answered, so
// the integrator may send it again.
func (db *DB) DropDefense(ctx context.Context, id uuid.UUID) error {
	if _, err := db.pool.Exec(ctx, `UPDATE infractions SET defense = NULL, defended_at = NULL, updated_at = now()
		WHERE id = $1 AND NOT defense_forwarded`, id); err != nil {
		return fmt.Errorf("storage: drop defense: %w", err)
	}
	return nil
}
