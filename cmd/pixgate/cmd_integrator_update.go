package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/pixgate/pixgate/providerclient/connectors"
	"github.com/pixgate/pixgate/storage"
)

func (c *cli) integratorUpdateCommand() *cobra.Command {
	var (
		integrator int64
		hold       string
		deadline   string
		sameHolder bool
		asJSON     bool
		approval   approvalFlags
	)
	cmd := &cobra.Command{
		Use:   "update",
		Short: "Change an integrator's cash-in settlement hold, same-holder rule, payout deadline or withdrawal approval",
		Long: `Change how long the net of an integrator's paid charges stays in its pending
balance before it becomes available (--cashin-hold), and whether it keeps only
payments from its payers' own accounts and pays only to its recipients' own keys
(--same-holder, as licensed betting operators must: Portaria SPA/MF 615/2024).

The new hold applies to charges paid from now on; charges already held keep the
available_at they were given. With the same-holder rule, a charge paid from an
account whose document is not the charge's payer.document is returned to its
payer in full, automatically, and a withdrawal to a key of anyone other than
creditParty.taxId is refused (422) before anything is reserved.

--payout-deadline gives each withdrawal created from now on a due_at, its
creation plus the deadline (unless the request gives its own due_at): a
betting operator pays a prize within 120 minutes (Portaria SPA/MF 615/2024).
Those near it and past it are exported as metrics and told to the integrator
by postback; pixgate payouts late lists the breaches. 0 turns it off.

With an approval rule (--approval-threshold, --approval-all), withdrawals and
batches it holds wait AWAITING_APPROVAL, their money reserved and nothing sent,
until a second API key with the withdrawals:approve scope approves or rejects
them, or --approval-expiry passes (then they are rejected as approval_expired).`,
		Example: `  pixgate integrator update --integrator 1 --cashin-hold 24h
  pixgate integrator update --integrator 1 --same-holder
  pixgate integrator update --integrator 1 --same-holder=false
  pixgate integrator update --integrator 1 --payout-deadline 120m
  pixgate integrator update --integrator 1 --approval-threshold 1000.00 --approval-expiry 24h
  pixgate integrator update --integrator 1 --approval-all
  pixgate integrator update --integrator 1 --approval-threshold none --approval-all=false`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			setHold, setSame, setDeadline := cmd.Flags().Changed("cashin-hold"), cmd.Flags().Changed("same-holder"), cmd.Flags().Changed("payout-deadline")
			setApproval := approval.changed(cmd)
			if !setHold && !setSame && !setDeadline && !setApproval {
				return fmt.Errorf("nothing to change: give --cashin-hold, --same-holder, --payout-deadline, --approval-threshold, --approval-all or --approval-expiry")
			}
			var pd time.Duration
			if setDeadline {
				var err error
				if pd, err = parsePayoutDeadline(deadline); err != nil {
					return err
				}
			}
			var d time.Duration
			if setHold {
				var err error
				if d, err = parseHold(hold); err != nil {
					return err
				}
			}
			return c.withDB(cmd.Context(), func(db *storage.DB) error {
				before, err := db.Integrator(cmd.Context(), integrator)
				if err != nil {
					return notFound("integrator", integrator, err)
				}
				in, held := before, 0
				if setHold {
					if in, held, err = db.SetCashInHold(cmd.Context(), integrator, d); err != nil {
						return err
					}
				}
				if setSame {
					if in, err = db.SetSameHolder(cmd.Context(), integrator, sameHolder); err != nil {
						return err
					}
				}
				if setDeadline {
					if in, err = db.SetPayoutDeadline(cmd.Context(), integrator, pd); err != nil {
						return err
					}
				}
				if setApproval {
					rule, err := approval.rule(cmd, in.Approval)
					if err != nil {
						return err
					}
					if in, err = db.SetApproval(cmd.Context(), integrator, rule); err != nil {
						return err
					}
				}
				if asJSON {
					v := viewIntegrator(in)
					if setHold {
						v.HeldCharges = &held
					}
					return printJSON(c.stdout, v)
				}
				if setHold {
					c.printf("integrator %d: cash-in hold %s (was %s), for charges paid from now on\n", in.ID, formatHold(in.CashInHold), formatHold(before.CashInHold))
					if held > 0 {
						c.printf("  %d charges already held keep their available_at\n", held)
					}
				}
				if setSame {
					c.printf("integrator %d: same holder %s (was %s), for payments confirmed and withdrawals created from now on\n",
						in.ID, onOff(in.SameHolder), onOff(before.SameHolder))
					if in.SameHolder && !c.providerReportsPayers() {
						c.printf("  warning: the %s provider does not report who paid a charge: every payment to this integrator will be returned\n",
							c.cfg.ProviderKind)
					}
				}
				if setDeadline {
					c.printf("integrator %d: payout deadline %s (was %s), for withdrawals created from now on\n",
						in.ID, formatHold(in.PayoutDeadline), formatHold(before.PayoutDeadline))
				}
				if setApproval {
					c.printf("integrator %d: %s (was: %s), for withdrawals and batches created from now on\n", in.ID,
						describeApproval(in.Approval), describeApproval(before.Approval))
				}
				return nil
			})
		},
	}
	cmd.Flags().Int64Var(&integrator, "integrator", 0, "integrator id (required)")
	cmd.Flags().StringVar(&deadline, "payout-deadline", "", "how long after its creation a withdrawal is due, e.g. 120m, 2h, or 0 for none")
	cmd.Flags().StringVar(&hold, "cashin-hold", "", "settlement hold of cash-in, e.g. 24h, 2d, 30m, or 0 for none")
	cmd.Flags().BoolVar(&sameHolder, "same-holder", false, "take payments only from the payer's own account and pay only to the recipient's own key (--same-holder=false turns it off)")
	approval.add(cmd)
	addJSONFlag(cmd, &asJSON)
	_ = cmd.MarkFlagRequired("integrator")
	return cmd
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// providerReportsPayers says whether the configured provider's connector
// names who paid a charge, which the same-holder rule needs.
func (c *cli) providerReportsPayers() bool {
	conn, err := connectors.Bare(c.providerConfig())
	return err == nil && conn.Capabilities().PayerDocument
}

// parseHold reads a settlement hold: a Go duration (90s, 30m, 24h, 1h30m),
// whole days (2d), or 0.
func parseHold(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	d, err := time.ParseDuration(s)
	if days, ok := strings.CutSuffix(s, "d"); ok {
		var n int64
		n, err = strconv.ParseInt(days, 10, 64)
		d = time.Duration(min(n, 1000)) * 24 * time.Hour // 1000 days cannot overflow; the maximum is checked below
	}
	switch {
	case err != nil:
		return 0, fmt.Errorf("--cashin-hold %q is not a duration (e.g. 24h, 2d, 30m, 0)", s)
	case d < 0:
		return 0, fmt.Errorf("--cashin-hold must not be negative")
	case d > storage.MaxCashInHold:
		return 0, fmt.Errorf("--cashin-hold may be at most 90d")
	}
	return d, nil
}

// parsePayoutDeadline reads --payout-deadline: a Go duration (120m, 2h) up
// to storage.MaxPayoutDeadline, or 0.
func parsePayoutDeadline(s string) (time.Duration, error) {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	switch {
	case err != nil:
		return 0, fmt.Errorf("--payout-deadline %q is not a duration (e.g. 120m, 2h, 0)", s)
	case d < 0 || d > storage.MaxPayoutDeadline:
		return 0, fmt.Errorf("--payout-deadline must be from 0 to %s", formatHold(storage.MaxPayoutDeadline))
	}
	return d, nil
}

// formatHold prints a hold the way --cashin-hold takes it: "none", "2m",
// "24h", "1h30m".
func formatHold(d time.Duration) string {
	if d == 0 {
		return "none"
	}
	s := d.String() // "24h0m0s", "2m0s", "1h30m0s", "1m30s"
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
