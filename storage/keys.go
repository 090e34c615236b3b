package storage

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/base64"
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// Scopes an API key may carry.
const (
	ScopeChargesWrite     = "charges:write"
	ScopeChargesRead      = "charges:read"
	ScopeWithdrawalsWrite = "withdrawals:write"
	ScopeWithdrawalsRead  = "withdrawals:read"
	ScopeRefundsWrite     = "refunds:write"
	ScopeBalanceRead      = "balance:read"
	ScopeTransactionsRead = "transactions:read"
	ScopeInfractionsRead  = "infractions:read"
	ScopeInfractionsWrite = "infractions:write"
	ScopePixKeysRead      = "pix_keys:read"
	ScopeRecurrencesWrite = "recurrences:write"
	ScopeRecurrencesRead  = "recurrences:read"
	ScopeWebhooksWrite    = "webhooks:write"
	ScopeWebhooksRead     = "webhooks:read"
	ScopeSubAccountsWrite = "sub_accounts:write"
	ScopeSubAccountsRead  = "sub_accounts:read"
)

// ScopeWithdrawalsApprove approves and rejects withdrawals and batches
// awaiting approval, but for those its own key created.
const ScopeWithdrawalsApprove = "withdrawals:approve"

// AllScopes is what a key carries when none are named.
var AllScopes = []string{ScopeChargesWrite, ScopeChargesRead, ScopeWithdrawalsWrite, ScopeWithdrawalsRead,
	ScopeRefundsWrite, ScopeBalanceRead, ScopeTransactionsRead, ScopeInfractionsRead, ScopeInfractionsWrite, ScopePixKeysRead,
	ScopeRecurrencesWrite, ScopeRecurrencesRead, ScopeWebhooksWrite, ScopeWebhooksRead, ScopeSubAccountsWrite, ScopeSubAccountsRead,
	ScopeWithdrawalsApprove}

// APIKey is a stored key; its secret exists only as a SHA-256 hash.
type APIKey struct {
	ID           int64
	IntegratorID int64
	PublicID     string
	Scopes       []string
	IPAllowlist  []netip.Prefix
	CreatedAt    time.Time
	RevokedAt    *time.Time
}

// HasScope reports whether the key grants scope.
func (k APIKey) HasScope(scope string) bool { return slices.Contains(k.Scopes, scope) }

// AllowsIP reports whether a request from ip may use the key: always when the
// key has no allowlist.
func (k APIKey) AllowsIP(ip netip.Addr) bool {
	if len(k.IPAllowlist) == 0 {
		return true
	}
	ip = ip.Unmap()
	for _, p := range k.IPAllowlist {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// Credentials are a key's public id and secret, known only when the key is
// created. Token is the v1 bearer token.
type Credentials struct {
	PublicID string `json:"public_id"`
	Secret   string `json:"secret"`
}

// Token joins the pair as v1 expects it: "{public_id}.{secret}".
func (c Credentials) Token() string { return c.PublicID + "." + c.Secret }

// ErrInvalidCredentials covers an unknown key, a revoked key and a wrong
// secret alike: callers must not tell them apart.
var ErrInvalidCredentials = errors.New("invalid credentials")

// ErrInvalidScope names a scope that does not exist.
var ErrInvalidScope = errors.New("unknown scope")

// NewKey describes a key to create.
type NewKey struct {
	IntegratorID int64
	Scopes       []string // empty means AllScopes
	IPAllowlist  []netip.Prefix
}

// CreateKey creates an API key and returns its credentials, the only time
// the secret is visible.
func (db *DB) CreateKey(ctx context.Context, nk NewKey) (APIKey, Credentials, error) {
	var (
		key   APIKey
		creds Credentials
	)
	err := db.inTx(ctx, func(tx pgx.Tx) (err error) {
		key, creds, err = createKey(ctx, tx, nk)
		return err
	})
	return key, creds, err
}

func createKey(ctx context.Context, tx pgx.Tx, nk NewKey) (APIKey, Credentials, error) {
	scopes := nk.Scopes
	if len(scopes) == 0 {
		scopes = AllScopes
	}
	for _, s := range scopes {
		if !slices.Contains(AllScopes, s) {
			return APIKey{}, Credentials{}, fmt.Errorf("%w %q (known: %s)", ErrInvalidScope, s, strings.Join(AllScopes, ", "))
		}
	}
	allow := nk.IPAllowlist
	if allow == nil {
		allow = []netip.Prefix{}
	}
	creds := Credentials{
		PublicID: "pk_" + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(randomBytes(10))),
		Secret:   "sk_" + base64.RawURLEncoding.EncodeToString(randomBytes(32)),
	}
	hash := sha256.Sum256([]byte(creds.Secret))
	key := APIKey{IntegratorID: nk.IntegratorID, PublicID: creds.PublicID, Scopes: scopes, IPAllowlist: allow}
	err := tx.QueryRow(ctx, `INSERT INTO api_keys (integrator_id, public_id, secret_hash, scopes, ip_allowlist)
		VALUES ($1, $2, $3, $4, $5) RETURNING id, created_at`,
		nk.IntegratorID, creds.PublicID, hash[:], scopes, allow).Scan(&key.ID, &key.CreatedAt)
	if err != nil {
		return APIKey{}, Credentials{}, fmt.Errorf("storage: create key: %w", notFound(err))
	}
	return key, creds, nil
}

// RevokeKey revokes a key by its public id; revoking twice is not an error.
func (db *DB) RevokeKey(ctx context.Context, publicID string) error {
	tag, err := db.pool.Exec(ctx, `UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE public_id = $1`, publicID)
	if err != nil {
		return fmt.Errorf("storage: revoke key: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return ErrNotFound
	}
	return nil
}

// Key returns a key by its public id (never its secret).
func (db *DB) Key(ctx context.Context, publicID string) (APIKey, error) {
	rows, _ := db.pool.Query(ctx, `SELECT id, integrator_id, public_id, scopes, ip_allowlist, created_at, revoked_at
		FROM api_keys WHERE public_id = $1`, publicID)
	k, err := pgx.CollectExactlyOneRow(rows, scanKey)
	return k, notFound(err)
}

// ListKeys returns an integrator's keys, newest first.
func (db *DB) ListKeys(ctx context.Context, integratorID int64) ([]APIKey, error) {
	rows, err := db.pool.Query(ctx, `SELECT id, integrator_id, public_id, scopes, ip_allowlist, created_at, revoked_at
		FROM api_keys WHERE integrator_id = $1 ORDER BY id DESC`, integratorID)
	if err != nil {
		return nil, fmt.Errorf("storage: list keys: %w", err)
	}
	return pgx.CollectRows(rows, scanKey)
}

func scanKey(r pgx.CollectableRow) (APIKey, error) {
	var k APIKey
	err := r.Scan(&k.ID, &k.IntegratorID, &k.PublicID, &k.Scopes, &k.IPAllowlist, &k.CreatedAt, &k.RevokedAt)
	return k, err
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic("storage: crypto/rand failed: " + err.Error()) // never happens on supported platforms
	}
	return b
}
