package chaos

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/jackc/pgx/v5"
)

// resolve settles what the load never learnt, as an integrator would the
// next morning: create requests without a definitive answer are looked up
// (GET by external_id on v1; refunds, which v1 does not list, in the
// database), and charges PixGate issued are paid if their payer never got
// to it.
func resolve(ctx context.Context, c *cluster, l *load) error {
	for _, r := range l.m.records {
		if err := resolveOne(ctx, c, l, r); err != nil {
			return fmt.Errorf("%s %s: %w", r.kind, r.externalID, err)
		}
	}
	return nil
}

// resolveOne runs after the load stopped: nothing else touches r.
func resolveOne(ctx context.Context, c *cluster, l *load, r *record) error {
	in := l.m.integrators[r.integrator]
	if r.answer == unanswered {
		switch r.kind {
		case chargeKind, withdrawalKind:
			rep := l.api.read(ctx, r.integrator, r.kind, r.externalID)
			switch {
			case rep.Status == http.StatusNotFound:
				r.answer = refused
			case rep.OK():
				r.answer, r.pixID = created, rep.Str("pix_id")
				if r.kind == chargeKind {
					r.provider = rep.Str("provider")
				}
			default:
				return fmt.Errorf("lookup: %d", rep.Status)
			}
		case refundKind:
			a, pixID, err := refundOf(ctx, c, in.id, r.externalID)
			if err != nil {
				return err
			}
			r.answer, r.pixID = a, pixID
		}
	}
	if r.kind != chargeKind || r.answer != created || r.pixID == "" || !r.paidAt.IsZero() {
		return nil
	}
	st, err := l.statusAt(ctx, r)
	if err != nil {
		return err
	}
	switch st {
	case "PAID":
		r.paidAt = r.payAttempted
		if r.paidAt.IsZero() {
			return fmt.Errorf("paid at the sandbox, never by the load")
		}
	case "PENDING":
		l.pay(ctx, r)
	}
	r.payUnknown = false
	return nil
}

// nonFinal counts what is still moving: charges PENDING, transfers
// PROCESSING, postbacks not delivered, money under a settlement hold.
const nonFinalSQL = `
SELECT (SELECT count(*) FROM charges WHERE status = 'PENDING')
     + (SELECT count(*) FROM withdrawals WHERE status = 'PROCESSING')
     + (SELECT count(*) FROM refunds WHERE status = 'PROCESSING')
     + (SELECT count(*) FROM postbacks WHERE status = 'PENDING')
     + (SELECT count(*) FROM ledger_accounts WHERE kind IN ('pending', 'reserved') AND balance <> 0)`

// drain waits until nothing is left moving (nonFinal counts it), at most
// bound; it returns how long that took and what was left when it gave up.
func drain(ctx context.Context, c *cluster, bound time.Duration, nonFinal string) (time.Duration, int) {
	start := time.Now()
	left := -1
	for time.Since(start) < bound && ctx.Err() == nil {
		if err := c.db.QueryRow(ctx, nonFinal).Scan(&left); err == nil && left == 0 {
			return time.Since(start), 0
		}
		sleep(ctx, time.Second)
	}
	return time.Since(start), left
}

// refundOf reads a refund whose create got no definitive answer from the
// database (v1 has no refund lookup): created with its pix_id, or refused
// when PixGate holds no refund of that external_id.
func refundOf(ctx context.Context, c *cluster, integratorID int64, externalID string) (answer, string, error) {
	var pixID string
	err := c.db.QueryRow(ctx, `SELECT coalesce(pix_id, '') FROM refunds WHERE integrator_id = $1 AND external_id = $2`,
		integratorID, externalID).Scan(&pixID)
	switch {
	case err == nil:
		return created, pixID, nil
	case errors.Is(err, pgx.ErrNoRows):
		return refused, "", nil
	}
	return unanswered, "", err
}
