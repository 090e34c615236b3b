package storage

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// RouteStep is one provider of a route's charges. Weight splits the volume
// among a route's providers (a:80,b:20 sends about 80% of new charges to a
// first); 0 on every step means order alone: the first takes every charge
// and the others are its fallbacks, in order.
type RouteStep struct {
	Provider string
	Weight   int
}

// Route is which providers take an integrator's new charges and
// withdrawals, in order. IntegratorID is nil for the default route, which
// applies to integrators without one of their own.
type Route struct {
	IntegratorID *int64
	Charges      []RouteStep
	Withdrawals  []string
	UpdatedAt    time.Time
	// Limits are the per-PIX limits of the route's providers that have
	// one (RouteFor fills it; see PixLimit).
	Limits map[string]PixLimit
}

// builtinRoute is the route of every integrator while no route is set:
// the default provider alone.
func builtinRoute() Route {
	return Route{Charges: []RouteStep{{Provider: DefaultProvider}}, Withdrawals: []string{DefaultProvider}}
}

// RouteError says what is wrong with one list of a route ("charges" or
// "withdrawals").
type RouteError struct {
	List string
	Err  error
}

func (e *RouteError) Error() string { return e.List + ": " + e.Err.Error() }
func (e *RouteError) Unwrap() error { return e.Err }

// MaxRouteWeight is the largest weight of a route's provider: weights are
// shares, and one past the column that keeps them (32 bits) would be
// stored as another, or as none.
const MaxRouteWeight = 1_000_000

// checkRoute refuses an empty list, a provider twice in a list, weights
// that are neither all zero nor all positive, and a weight above
// MaxRouteWeight.
func checkRoute(r Route) error {
	if len(r.Charges) == 0 {
		return &RouteError{List: "charges", Err: errors.New("at least one provider is needed")}
	}
	if len(r.Withdrawals) == 0 {
		return &RouteError{List: "withdrawals", Err: errors.New("at least one provider is needed")}
	}
	weighted := r.Charges[0].Weight > 0
	seen := map[string]bool{}
	for _, s := range r.Charges {
		switch {
		case s.Weight < 0 || (s.Weight > 0) != weighted:
			return &RouteError{List: "charges", Err: errors.New("weights are positive whole numbers, given for every provider or for none")}
		case s.Weight > MaxRouteWeight:
			return &RouteError{List: "charges", Err: fmt.Errorf("the weight of %q is above %d", s.Provider, MaxRouteWeight)}
		case seen[s.Provider]:
			return &RouteError{List: "charges", Err: fmt.Errorf("provider %q appears twice", s.Provider)}
		}
		seen[s.Provider] = true
	}
	clear(seen)
	for _, name := range r.Withdrawals {
		if seen[name] {
			return &RouteError{List: "withdrawals", Err: fmt.Errorf("provider %q appears twice", name)}
		}
		seen[name] = true
	}
	return nil
}

// SetRoute sets the route of r.IntegratorID (the default route when nil),
// replacing the one it had. Every provider it names must be the default one
// or a record (disabled ones are accepted: they take nothing while
// disabled). It fails with a *RouteError (wrapping ErrUnknownProvider for
// a name that is neither) or ErrNotFound for an unknown integrator,
// writing nothing.
func (db *DB) SetRoute(ctx context.Context, r Route) (Route, error) {
	if err := checkRoute(r); err != nil {
		return Route{}, err
	}
	names, weights := make([]string, len(r.Charges)), make([]int32, len(r.Charges))
	for i, s := range r.Charges {
		names[i], weights[i] = s.Provider, int32(s.Weight)
	}
	known, err := db.providerNames(ctx)
	if err != nil {
		return Route{}, err
	}
	for list, ns := range map[string][]string{"charges": names, "withdrawals": r.Withdrawals} {
		for _, n := range ns {
			if !known[n] {
				return Route{}, &RouteError{List: list, Err: fmt.Errorf("%w: %q", ErrUnknownProvider, n)}
			}
		}
	}
	err = db.pool.QueryRow(ctx, `INSERT INTO routes (integrator_id, charges, charge_weights, withdrawals) VALUES ($1, $2, $3, $4)
		ON CONFLICT ((coalesce(integrator_id, 0))) DO UPDATE
		SET charges = EXCLUDED.charges, charge_weights = EXCLUDED.charge_weights, withdrawals = EXCLUDED.withdrawals, updated_at = now()
		RETURNING updated_at`, r.IntegratorID, names, weights, r.Withdrawals).Scan(&r.UpdatedAt)
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23503" {
		return Route{}, ErrNotFound
	}
	if err != nil {
		return Route{}, fmt.Errorf("storage: set route: %w", err)
	}
	db.routes.forget()
	return r, nil
}

// providerNames are the names a route may use: the default provider and
// every record.
func (db *DB) providerNames(ctx context.Context) (map[string]bool, error) {
	rows, _ := db.pool.Query(ctx, `SELECT name FROM providers`)
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("storage: provider names: %w", err)
	}
	known := map[string]bool{DefaultProvider: true}
	for _, n := range names {
		known[n] = true
	}
	return known, nil
}

// StoredRoute returns the route set for integratorID (the default route
// when nil) as stored, disabled providers included; found is false when
// none is set.
func (db *DB) StoredRoute(ctx context.Context, integratorID *int64) (r Route, found bool, err error) {
	rows, _ := db.pool.Query(ctx, `SELECT integrator_id, charges, charge_weights, withdrawals, updated_at FROM routes
		WHERE coalesce(integrator_id, 0) = coalesce($1::bigint, 0)`, integratorID)
	r, err = pgx.CollectExactlyOneRow(rows, scanRoute)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return Route{}, false, nil
	case err != nil:
		return Route{}, false, fmt.Errorf("storage: route: %w", err)
	}
	return r, true, nil
}

func scanRoute(row pgx.CollectableRow) (Route, error) {
	var (
		r       Route
		names   []string
		weights []int32
	)
	if err := row.Scan(&r.IntegratorID, &names, &weights, &r.Withdrawals, &r.UpdatedAt); err != nil {
		return Route{}, err
	}
	for i, n := range names {
		r.Charges = append(r.Charges, RouteStep{Provider: n, Weight: int(weights[i])})
	}
	return r, nil
}

// RouteFor is the route an integrator's new charges and withdrawals
// follow: its own, else the default route, else the default provider
// alone; disabled providers left out (a route whose every provider is
// disabled is empty, and nothing new can be routed). It answers from a
// snapshot of every route that each process keeps for routeCacheTTL (and
// drops when it changes a route or a provider itself), so the request path
// reads the database at most once per that interval: a change made
// elsewhere reaches every process within it.
func (db *DB) RouteFor(ctx context.Context, integratorID int64) (Route, error) {
	snap, err := db.routes.get(ctx, db)
	if err != nil {
		return Route{}, err
	}
	r, ok := snap.byIntegrator[integratorID]
	if !ok {
		r = snap.fallback
	}
	return snap.usable(r), nil
}

// routeCacheTTL is how long a process routes by a snapshot of the routes.
const routeCacheTTL = 2 * time.Second

// routeCache holds the snapshot RouteFor answers from.
type routeCache struct {
	mu   sync.Mutex
	snap *routeSnapshot
}

type routeSnapshot struct {
	loaded       time.Time
	byIntegrator map[int64]Route
	fallback     Route           // the default route, or builtinRoute
	disabled     map[string]bool // providers taken out of every route
	limits       map[string]PixLimit
}

// usable is r without its disabled providers.
func (s *routeSnapshot) usable(r Route) Route {
	out := r
	out.Charges = slices.DeleteFunc(slices.Clone(r.Charges), func(st RouteStep) bool { return s.disabled[st.Provider] })
	out.Withdrawals = slices.DeleteFunc(slices.Clone(r.Withdrawals), func(n string) bool { return s.disabled[n] })
	out.Limits = s.limits
	return out
}

// get returns the snapshot, loading it when it is older than the TTL.
// Loads are serialized, so a burst of requests reads the tables once.
func (c *routeCache) get(ctx context.Context, db *DB) (*routeSnapshot, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.snap != nil && time.Since(c.snap.loaded) < routeCacheTTL {
		return c.snap, nil
	}
	snap := &routeSnapshot{loaded: time.Now(), byIntegrator: map[int64]Route{}, fallback: builtinRoute(), disabled: map[string]bool{}}
	rows, _ := db.pool.Query(ctx, `SELECT integrator_id, charges, charge_weights, withdrawals, updated_at FROM routes`)
	routes, err := pgx.CollectRows(rows, scanRoute)
	if err != nil {
		return nil, fmt.Errorf("storage: routes: %w", err)
	}
	for _, r := range routes {
		if r.IntegratorID == nil {
			snap.fallback = r
		} else {
			snap.byIntegrator[*r.IntegratorID] = r
		}
	}
	if err := snap.loadProviders(ctx, db); err != nil {
		return nil, err
	}
	c.snap = snap
	return snap, nil
}

// loadProviders reads which providers are disabled and their per-PIX
// limits.
func (s *routeSnapshot) loadProviders(ctx context.Context, db *DB) error {
	s.limits = map[string]PixLimit{}
	rows, _ := db.pool.Query(ctx, `SELECT name, enabled, coalesce(max_per_pix, 0), coalesce(max_per_pix_night, 0) FROM providers`)
	var (
		name    string
		enabled bool
		l       PixLimit
	)
	_, err := pgx.ForEachRow(rows, []any{&name, &enabled, &l.Max, &l.Night}, func() error {
		if !enabled {
			s.disabled[name] = true
		}
		if l != (PixLimit{}) {
			s.limits[name] = l
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("storage: providers of the routes: %w", err)
	}
	if l := db.defaultLimit.Load(); l != nil && *l != (PixLimit{}) {
		if _, stored := s.limits[DefaultProvider]; !stored {
			s.limits[DefaultProvider] = *l
		}
	}
	return nil
}

// forget drops the snapshot after a change this process made.
func (c *routeCache) forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.snap = nil
}
