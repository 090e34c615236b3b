package storage

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/pixgate/pixgate/storage/money"
)

// DefaultProvider is the provider configured by PIXGATE_PROVIDER_*: it is
// no record (it is built from the environment at every start), its name is
// reserved, and every charge and transfer made before there were several
// providers is its.
const DefaultProvider = "default"

// Provider is a provider record: what a process needs to build the
// provider's connector at start. It holds no secret: ClientSecretRef says
// where to read it ("env:VAR" or "file:/path"), and the certificate, key
// and CA are file paths.
type Provider struct {
	Name            string
	Kind            string // the contract, one the connectors know
	URL             string
	ClientID        string
	ClientSecretRef string // "", "env:VAR" or "file:/path"
	CertFile        string
	KeyFile         string
	CAFile          string
	PixKey          string
	// Enabled: routes use the provider. A disabled one takes nothing new;
	// what it already holds stays its until settled.
	Enabled bool
	// Limit is its maximum per PIX, zero none (see PixLimit).
	Limit     PixLimit
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Errors of provider records.
var (
	ErrProviderExists  = errors.New("a provider with this name already exists")
	ErrProviderName    = errors.New("a provider name is 1 to 32 lower-case letters, digits, '-' or '_', starting with a letter or digit, and not \"default\"")
	ErrProviderSecret  = errors.New(`a client secret reference is "env:VAR" or "file:/path"`)
	ErrUnknownProvider = errors.New("no such provider")
)

var providerNameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,31}$`)

// checkProviderName refuses a name a record cannot take.
func checkProviderName(name string) error {
	if !providerNameRE.MatchString(name) || name == DefaultProvider {
		return ErrProviderName
	}
	return nil
}

// CheckSecretRef refuses a client secret reference other than "",
// "env:VAR" or "file:/path".
func CheckSecretRef(ref string) error {
	if ref == "" {
		return nil
	}
	scheme, rest, ok := strings.Cut(ref, ":")
	if !ok || rest == "" || (scheme != "env" && scheme != "file") {
		return ErrProviderSecret
	}
	return nil
}

const providerColumns = `name, kind, url, client_id, client_secret_ref, cert_file, key_file, ca_file, pix_key, enabled, created_at, updated_at,
	coalesce(max_per_pix, 0), coalesce(max_per_pix_night, 0)`

func scanProvider(r pgx.CollectableRow) (Provider, error) {
	var p Provider
	err := r.Scan(&p.Name, &p.Kind, &p.URL, &p.ClientID, &p.ClientSecretRef, &p.CertFile, &p.KeyFile, &p.CAFile, &p.PixKey,
		&p.Enabled, &p.CreatedAt, &p.UpdatedAt, &p.Limit.Max, &p.Limit.Night)
	return p, err
}

// AddProvider records a new provider, enabled, with its float account
// (see docs/ledger.md). It fails with ErrProviderName, ErrProviderSecret or
// ErrProviderExists, writing nothing.
func (db *DB) AddProvider(ctx context.Context, p Provider) (Provider, error) {
	if err := checkProviderName(p.Name); err != nil {
		return Provider{}, err
	}
	if err := CheckSecretRef(p.ClientSecretRef); err != nil {
		return Provider{}, err
	}
	var added Provider
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		rows, _ := tx.Query(ctx, `INSERT INTO providers (name, kind, url, client_id, client_secret_ref, cert_file, key_file, ca_file, pix_key,
				max_per_pix, max_per_pix_night)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, nullif($10::bigint, 0), nullif($11::bigint, 0)) RETURNING `+providerColumns,
			p.Name, p.Kind, p.URL, p.ClientID, p.ClientSecretRef, p.CertFile, p.KeyFile, p.CAFile, p.PixKey, p.Limit.Max, p.Limit.Night)
		var err error
		added, err = pgx.CollectExactlyOneRow(rows, scanProvider)
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) && pgErr.Code == "23505" {
			return ErrProviderExists
		}
		if err != nil {
			return fmt.Errorf("storage: add provider: %w", err)
		}
		return createFloat(ctx, tx, p.Name)
	})
	if err != nil {
		return Provider{}, err
	}
	db.routes.forget()
	return added, nil
}

// UpdateProvider rewrites a provider record's settings (all but its name,
// its enabled flag and its timestamps) with p's; its per-PIX limits reach
// every route within the route cache's life. It fails with
// ErrUnknownProvider or ErrProviderSecret.
func (db *DB) UpdateProvider(ctx context.Context, p Provider) (Provider, error) {
	if err := CheckSecretRef(p.ClientSecretRef); err != nil {
		return Provider{}, err
	}
	rows, _ := db.pool.Query(ctx, `UPDATE providers SET kind = $2, url = $3, client_id = $4, client_secret_ref = $5,
			cert_file = $6, key_file = $7, ca_file = $8, pix_key = $9, max_per_pix = nullif($10::bigint, 0), max_per_pix_night = nullif($11::bigint, 0),
			updated_at = now()
		WHERE name = $1 RETURNING `+providerColumns,
		p.Name, p.Kind, p.URL, p.ClientID, p.ClientSecretRef, p.CertFile, p.KeyFile, p.CAFile, p.PixKey, p.Limit.Max, p.Limit.Night)
	up, err := oneProvider(rows, p.Name)
	if err == nil {
		db.routes.forget()
	}
	return up, err
}

// SetProviderEnabled enables or disables a provider record. Disabled, it
// leaves every route (RouteFor) within the route cache's life; what it
// holds stays its.
func (db *DB) SetProviderEnabled(ctx context.Context, name string, enabled bool) (Provider, error) {
	rows, _ := db.pool.Query(ctx, `UPDATE providers SET enabled = $2, updated_at = now() WHERE name = $1 RETURNING `+providerColumns,
		name, enabled)
	p, err := oneProvider(rows, name)
	if err == nil {
		db.routes.forget()
	}
	return p, err
}

// ProviderByName returns one provider record.
func (db *DB) ProviderByName(ctx context.Context, name string) (Provider, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+providerColumns+` FROM providers WHERE name = $1`, name)
	return oneProvider(rows, name)
}

// Providers returns every provider record, enabled or not, by name: a
// process builds one connector for each at start (beside the default
// provider of PIXGATE_PROVIDER_*, which is no record), so that what a
// disabled provider still holds can be read and settled.
func (db *DB) Providers(ctx context.Context) ([]Provider, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+providerColumns+` FROM providers ORDER BY name`)
	ps, err := pgx.CollectRows(rows, scanProvider)
	if err != nil {
		return nil, fmt.Errorf("storage: providers: %w", err)
	}
	return ps, nil
}

func oneProvider(rows pgx.Rows, name string) (Provider, error) {
	p, err := pgx.CollectExactlyOneRow(rows, scanProvider)
	if errors.Is(err, pgx.ErrNoRows) {
		return Provider{}, fmt.Errorf("%w: %q", ErrUnknownProvider, name)
	}
	if err != nil {
		return Provider{}, fmt.Errorf("storage: provider %q: %w", name, err)
	}
	return p, nil
}

// createFloat creates a provider's float account: as many shards as the
// default provider's float has.
func createFloat(ctx context.Context, tx pgx.Tx, name string) error {
	_, err := tx.Exec(ctx, `INSERT INTO ledger_accounts (kind, allow_negative, shard, provider)
		SELECT 'provider', true, shard, $1 FROM ledger_accounts WHERE integrator_id IS NULL AND kind = 'provider' AND provider = $2`,
		name, DefaultProvider)
	if err != nil {
		return fmt.Errorf("storage: create the float of provider %q: %w", name, err)
	}
	return nil
}

// FloatBalances returns each provider's float: the money PixGate expects
// it to hold, by provider name (the default provider's included).
func (db *DB) FloatBalances(ctx context.Context) (map[string]money.Money, error) {
	rows, _ := db.pool.Query(ctx, `SELECT provider, sum(balance) FROM ledger_accounts
		WHERE integrator_id IS NULL AND kind = 'provider' GROUP BY provider`)
	out := map[string]money.Money{}
	var (
		name    string
		balance money.Money
	)
	_, err := pgx.ForEachRow(rows, []any{&name, &balance}, func() error {
		out[name] = -balance // the account is the counterpart: money at the provider is its negative
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("storage: float balances: %w", err)
	}
	return out, nil
}
