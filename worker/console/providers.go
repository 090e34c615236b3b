package console

import (
	"net/http"
	"sort"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// The providers page, read only: each provider (the default one of the
// process's configuration, and each record), whether routes may use it,
// the default route's share of it, and its float in the ledger beside the
// balance its statement last reported (docs/reconciliation.md), and its
// circuit breakers of each lane in this worker process.

// providerRow is one provider's line.
type providerRow struct {
	Name, Kind string
	Record     bool // a provider record (pixgate providers); the default one is none
	Enabled    bool
	Float      money.Money
	HasFloat   bool
	Close      *storage.ReconClose
	// ChargeWeight is its weight among the default route's charge steps
	// (0: none), WithdrawalRank its place in the withdrawal order (0: none).
	ChargeWeight, WithdrawalRank int
	// Breakers are its circuit breakers in this process, one per lane in
	// providerclient.Lanes' order; none for a provider the process left
	// out (a record added or enabled since it started).
	Breakers []laneBreaker
}

// laneBreaker is one lane's circuit breaker state.
type laneBreaker struct {
	Lane  providerclient.Lane
	State string
}

// breakers fills each row's breaker states from the worker's providers:
// they live in the process, not in storage.
func (c *console) breakers(rows map[string]*providerRow) {
	if c.cfg.Ops == nil {
		return
	}
	for name, lanes := range c.cfg.Ops.BreakerStates() {
		row := rows[name]
		if row == nil {
			continue
		}
		for _, lane := range providerclient.Lanes {
			if st := lanes[lane]; st != "" {
				row.Breakers = append(row.Breakers, laneBreaker{Lane: lane, State: st})
			}
		}
	}
}

func (c *console) providers(rw http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	records, err := c.cfg.Store.Providers(ctx)
	var floats map[string]money.Money
	if err == nil {
		floats, err = c.cfg.Store.FloatBalances(ctx)
	}
	var closes map[string]storage.ReconClose
	if err == nil {
		closes, err = c.cfg.Store.LastReconCloses(ctx)
	}
	var (
		route storage.Route
		set   bool
	)
	if err == nil {
		route, set, err = c.cfg.Store.StoredRoute(ctx, nil)
	}
	if !set { // no route set: the default provider alone takes everything
		route = storage.Route{Charges: []storage.RouteStep{{Provider: storage.DefaultProvider, Weight: 1}}, Withdrawals: []string{storage.DefaultProvider}}
	}
	if err != nil {
		c.fail(rw, r, err)
		return
	}
	rows := map[string]*providerRow{storage.DefaultProvider: {Name: storage.DefaultProvider, Enabled: true}}
	for _, p := range records {
		rows[p.Name] = &providerRow{Name: p.Name, Kind: p.Kind, Record: true, Enabled: p.Enabled}
	}
	for name, f := range floats {
		if rows[name] == nil {
			rows[name] = &providerRow{Name: name}
		}
		rows[name].Float, rows[name].HasFloat = f, true
	}
	for name, cl := range closes {
		if row := rows[name]; row != nil {
			row.Close = &cl
		}
	}
	for _, s := range route.Charges {
		if row := rows[s.Provider]; row != nil {
			row.ChargeWeight = s.Weight
		}
	}
	for i, name := range route.Withdrawals {
		if row := rows[name]; row != nil {
			row.WithdrawalRank = i + 1
		}
	}
	c.breakers(rows)
	list := make([]*providerRow, 0, len(rows))
	for _, row := range rows {
		list = append(list, row)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Name < list[j].Name })
	c.render(rw, r, http.StatusOK, "providers.html", view{Section: "providers", Data: list})
}
