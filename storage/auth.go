package storage

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
)

// An unknown public id must cost what a wrong secret costs, or the time of
// a 401 tells which key ids exist. So the lookup always answers one row of
// the same shape: the key with its integrator, or, when there is none, a
// decoy that the query builds from values the size of real ones; and the
// secret is always hashed and compared in constant time.
var (
	decoyHash          = sha256.Sum256([]byte("pixgate-no-such-key"))
	decoyName          = "Decoy Integrator Ltda"
	decoyEmail         = "decoy.integrator@pixgate.invalid"
	decoyWebhookSecret = "whsec_" + base64.StdEncoding.EncodeToString(make([]byte, 24))
)

// authenticateSQL selects keyWithIntegratorSQL's columns by public id. Left
// joins from a one-row relation make Postgres answer one row whether the
// key exists or not; the decoy's key id is 0.
const authenticateSQL = `SELECT coalesce(k.id, 0), coalesce(k.integrator_id, 0), q.public_id, coalesce(k.secret_hash, $2),
		coalesce(k.scopes, $3), coalesce(k.ip_allowlist, '{}'), coalesce(k.created_at, now()), k.revoked_at,
		coalesce(i.id, 0), coalesce(i.name, $4), coalesce(i.email, $5),
		coalesce(i.cashin_fee_kind, 'percent'), coalesce(i.cashin_fee_value, 0),
		coalesce(i.cashout_fee_kind, 'fixed'), coalesce(i.cashout_fee_value, 0),
		coalesce(i.webhook_secret, $6), coalesce(i.created_at, now()), coalesce(i.cashin_hold, interval '0'),
		coalesce(i.same_holder, false), coalesce(i.payout_deadline, interval '0'), i.approval_threshold, coalesce(i.approval_all, false), coalesce(i.approval_expiry, interval '24 hours')
	FROM (SELECT $1::text AS public_id) q
	LEFT JOIN api_keys k ON k.public_id = q.public_id
	LEFT JOIN integrators i ON i.id = k.integrator_id`

// AuthenticateKey checks a public id and secret pair and returns the key
// with its integrator (one query: every authenticated request needs both).
// The secret is hashed and compared in constant time; every failure is
// ErrInvalidCredentials, and every failure does the same work.
//
// With the key cache on (CacheKeys), a cached key whose secret matches is
// answered without the database; any failure still reads the database, so
// a wrong secret of a cached key costs what an unknown key costs.
func (db *DB) AuthenticateKey(ctx context.Context, publicID, secret string) (APIKey, Integrator, error) {
	given := sha256.Sum256([]byte(secret))
	if c := db.keys.Load(); c != nil {
		if e, ok := c.byPublicID(publicID); ok && e.key.RevokedAt == nil && subtle.ConstantTimeCompare(given[:], e.hash) == 1 {
			return e.key, e.in, nil
		}
	}
	e, err := db.fetchKey(ctx, authenticateSQL, publicID, decoyHash[:], AllScopes, decoyName, decoyEmail, decoyWebhookSecret)
	if err != nil {
		return APIKey{}, Integrator{}, fmt.Errorf("storage: authenticate: %w", err)
	}
	key, stored, in := e.key, e.hash, e.in
	if subtle.ConstantTimeCompare(given[:], stored) != 1 || key.ID == 0 || key.RevokedAt != nil {
		return APIKey{}, Integrator{}, ErrInvalidCredentials
	}
	return key, in, nil
}
