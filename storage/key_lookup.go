package storage

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// keyWithIntegratorSQL reads a key with its integrator in one query: every
// authenticated request needs both. A condition on k follows WHERE.
const keyWithIntegratorSQL = `SELECT k.id, k.integrator_id, k.public_id, k.secret_hash, k.scopes, k.ip_allowlist, k.created_at, k.revoked_at,
		i.id, i.name, i.email, i.cashin_fee_kind, i.cashin_fee_value, i.cashout_fee_kind, i.cashout_fee_value, i.webhook_secret, i.created_at, i.cashin_hold,
		i.same_holder, coalesce(i.payout_deadline, interval '0'), i.approval_threshold, i.approval_all, i.approval_expiry
	FROM api_keys k JOIN integrators i ON i.id = k.integrator_id WHERE `

// keyWithIntegrator runs query, which selects the columns of
// keyWithIntegratorSQL in its order, and returns the key, its stored secret
// hash and its integrator; pgx.ErrNoRows when there is none.
func (db *DB) keyWithIntegrator(ctx context.Context, query string, args ...any) (APIKey, []byte, Integrator, error) {
	var (
		key    APIKey
		stored []byte
	)
	rows, _ := db.pool.Query(ctx, query, args...)
	in, err := pgx.CollectExactlyOneRow(rows, func(r pgx.CollectableRow) (Integrator, error) {
		var (
			in                  Integrator
			cinKind, coutKind   string
			cinValue, coutValue int64
		)
		err := r.Scan(&key.ID, &key.IntegratorID, &key.PublicID, &stored, &key.Scopes, &key.IPAllowlist, &key.CreatedAt, &key.RevokedAt,
			&in.ID, &in.Name, &in.Email, &cinKind, &cinValue, &coutKind, &coutValue, &in.WebhookSecret, &in.CreatedAt, &in.CashInHold,
			&in.SameHolder, &in.PayoutDeadline, &in.Approval.Threshold, &in.Approval.All, &in.Approval.Expiry)
		in.CashIn, in.CashOut = feeRule(cinKind, cinValue), feeRule(coutKind, coutValue)
		return in, err
	})
	return key, stored, in, err
}

// fetchKey is keyWithIntegrator, filling the key cache when there is one.
func (db *DB) fetchKey(ctx context.Context, query string, args ...any) (keyEntry, error) {
	c := db.keys.Load()
	var gen uint64
	if c != nil {
		gen = c.generation()
	}
	key, stored, in, err := db.keyWithIntegrator(ctx, query, args...)
	e := keyEntry{key: key, hash: stored, in: in}
	if err == nil && c != nil && key.ID != 0 { // never AuthenticateKey's decoy
		c.put(gen, e)
	}
	return e, err
}

// ActiveKey returns the key with this id and its integrator, or
// ErrInvalidCredentials when the key does not exist or is revoked. v2 access
// tokens name their key by id and read it here on every use, so revoking a
// key ends its tokens at once and scope or allowlist changes apply at once
// (with the key cache on, as soon as Postgres delivers the change's
// notification; see CacheKeys).
func (db *DB) ActiveKey(ctx context.Context, id int64) (APIKey, Integrator, error) {
	e, ok := keyEntry{}, false
	if c := db.keys.Load(); c != nil {
		e, ok = c.byKeyID(id)
	}
	var err error
	if !ok {
		e, err = db.fetchKey(ctx, keyWithIntegratorSQL+"k.id = $1", id)
	}
	key, in := e.key, e.in
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return APIKey{}, Integrator{}, ErrInvalidCredentials
	case err != nil:
		return APIKey{}, Integrator{}, fmt.Errorf("storage: active key: %w", err)
	case key.RevokedAt != nil:
		return APIKey{}, Integrator{}, ErrInvalidCredentials
	}
	return key, in, nil
}
