package main

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/pixgate/pixgate/storage"
)

// envNameRE is an environment variable's name.
var envNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// routeView is how commands print a route.
type routeView struct {
	Integrator  *int64   `json:"integrator"` // null: the default route
	Charges     []string `json:"charges"`    // "a:80" or "a"
	Withdrawals []string `json:"withdrawals"`
	Set         bool     `json:"set"` // false: none is set, Effective applies
	// Effective is what new charges and withdrawals follow now: the route
	// itself, the default route or the default provider alone, without
	// disabled providers.
	Effective *routeView `json:"effective,omitempty"`
}

func viewRoute(r storage.Route) routeView {
	v := routeView{Integrator: r.IntegratorID, Charges: []string{}, Withdrawals: append([]string{}, r.Withdrawals...), Set: true}
	for _, s := range r.Charges {
		if s.Weight > 0 {
			v.Charges = append(v.Charges, s.Provider+":"+strconv.Itoa(s.Weight))
		} else {
			v.Charges = append(v.Charges, s.Provider)
		}
	}
	return v
}

// parseChargeRoute reads --charges: "a,b" (order alone) or "a:80,b:20"
// (weights, for every provider or none).
func parseChargeRoute(s string) ([]storage.RouteStep, error) {
	var steps []storage.RouteStep
	for _, part := range strings.Split(s, ",") {
		name, weight, weighted := strings.Cut(strings.TrimSpace(part), ":")
		step := storage.RouteStep{Provider: name}
		if weighted {
			w, err := strconv.Atoi(weight)
			if err != nil || w <= 0 {
				return nil, fmt.Errorf("--charges: the weight of %q must be a positive whole number, as in a:80,b:20", name)
			}
			step.Weight = w
		}
		if name == "" {
			return nil, fmt.Errorf("--charges %q: a provider name is missing", s)
		}
		steps = append(steps, step)
	}
	return steps, nil
}

// parseWithdrawalRoute reads --withdrawals: "b,a".
func parseWithdrawalRoute(s string) ([]string, error) {
	var names []string
	for _, part := range strings.Split(s, ",") {
		name := strings.TrimSpace(part)
		if name == "" {
			return nil, fmt.Errorf("--withdrawals %q: a provider name is missing", s)
		}
		if strings.Contains(name, ":") {
			return nil, fmt.Errorf("--withdrawals %q: withdrawals take an ordered list, without weights", s)
		}
		names = append(names, name)
	}
	return names, nil
}

func (c *cli) routeCommand() *cobra.Command {
	cmd := &cobra.Command{Use: "route", Short: "Set and show which providers take each integrator's charges and withdrawals"}
	cmd.AddCommand(c.routeSetCommand(), c.routeShowCommand())
	return cmd
}

// routeTarget reads --integrator and --default: the integrator's id, or
// nil for the default route.
func routeTarget(cmd *cobra.Command, integrator int64, isDefault bool) (*int64, error) {
	switch {
	case isDefault && cmd.Flags().Changed("integrator"):
		return nil, errors.New("--integrator and --default: give one of them")
	case isDefault:
		return nil, nil
	case !cmd.Flags().Changed("integrator"):
		return nil, errors.New("--integrator ID or --default is required")
	}
	return &integrator, nil
}

func (c *cli) routeSetCommand() *cobra.Command {
	var (
		integrator              int64
		isDefault, asJSON       bool
		charges, withdrawalList string
	)
	cmd := &cobra.Command{
		Use:   "set",
		Short: "Set an integrator's route, or the default route",
		Long: `Set which providers take new charges and withdrawals, in order: the first
that can take one does; the next ones are its fallbacks. Charge weights split
the volume (a:80,b:20). Records keep the provider they went to: a route
change never moves money already in flight. Processes follow within seconds.`,
		Example: `  pixgate route set --integrator 7 --charges a:80,b:20 --withdrawals b,a
  pixgate route set --default --charges default,b --withdrawals default`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			target, err := routeTarget(cmd, integrator, isDefault)
			if err != nil {
				return err
			}
			r := storage.Route{IntegratorID: target}
			if r.Charges, err = parseChargeRoute(charges); err != nil {
				return err
			}
			if r.Withdrawals, err = parseWithdrawalRoute(withdrawalList); err != nil {
				return err
			}
			return c.withDB(cmd.Context(), func(db *storage.DB) error {
				r, err := db.SetRoute(cmd.Context(), r)
				var re *storage.RouteError
				switch {
				case errors.As(err, &re):
					return fmt.Errorf("--%s: %w", re.List, re.Err)
				case err != nil:
					return notFound("integrator", integrator, err)
				}
				if asJSON {
					return printJSON(c.stdout, viewRoute(r))
				}
				c.printf("%s: charges %s, withdrawals %s\n", routeName(target), strings.Join(viewRoute(r).Charges, ","),
					strings.Join(r.Withdrawals, ","))
				return nil
			})
		},
	}
	cmd.Flags().Int64Var(&integrator, "integrator", 0, "the integrator whose route this is")
	cmd.Flags().BoolVar(&isDefault, "default", false, "set the default route, for integrators without one")
	cmd.Flags().StringVar(&charges, "charges", "", "providers of new charges, in order, optionally weighted: a,b or a:80,b:20 (required)")
	cmd.Flags().StringVar(&withdrawalList, "withdrawals", "", "providers of new withdrawals, in order: b,a (required)")
	addJSONFlag(cmd, &asJSON)
	_ = cmd.MarkFlagRequired("charges")
	_ = cmd.MarkFlagRequired("withdrawals")
	return cmd
}

func routeName(target *int64) string {
	if target == nil {
		return "default route"
	}
	return fmt.Sprintf("integrator %d", *target)
}

func (c *cli) routeShowCommand() *cobra.Command {
	var (
		integrator        int64
		isDefault, asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "show",
		Short: "Show an integrator's route (or the default route) and what new money follows now",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			target, err := routeTarget(cmd, integrator, isDefault)
			if err != nil {
				return err
			}
			return c.withDB(cmd.Context(), func(db *storage.DB) error {
				if target != nil {
					if err := requireIntegrator(cmd.Context(), db, *target); err != nil {
						return err
					}
				}
				stored, found, err := db.StoredRoute(cmd.Context(), target)
				if err != nil {
					return err
				}
				v := routeView{Integrator: target, Charges: []string{}, Withdrawals: []string{}}
				if found {
					v = viewRoute(stored)
				}
				if target != nil {
					eff, err := db.RouteFor(cmd.Context(), *target)
					if err != nil {
						return err
					}
					ev := viewRoute(eff)
					ev.Integrator = target
					v.Effective = &ev
				}
				if asJSON {
					return printJSON(c.stdout, v)
				}
				if found {
					c.printf("%s: charges %s, withdrawals %s\n", routeName(target), strings.Join(v.Charges, ","), strings.Join(v.Withdrawals, ","))
				} else if target == nil {
					c.printf("default route: none set; integrators without a route use the default provider alone\n")
				} else {
					c.printf("%s: none set; it follows the default route\n", routeName(target))
				}
				if v.Effective != nil {
					c.printf("new charges go to %s; new withdrawals to %s (disabled providers left out)\n",
						orDash(strings.Join(v.Effective.Charges, ",")), orDash(strings.Join(v.Effective.Withdrawals, ",")))
				}
				return nil
			})
		},
	}
	cmd.Flags().Int64Var(&integrator, "integrator", 0, "the integrator whose route to show")
	cmd.Flags().BoolVar(&isDefault, "default", false, "show the default route")
	addJSONFlag(cmd, &asJSON)
	return cmd
}
