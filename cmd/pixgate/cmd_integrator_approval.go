package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// approvalFlags are integrator update's maker-checker flags.
type approvalFlags struct {
	threshold, expiry string
	all               bool
}

func (f *approvalFlags) add(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.threshold, "approval-threshold", "",
		"withdrawals and batches above this amount (a batch: its total), e.g. 1000.00, wait for a second key's approval; none turns it off")
	cmd.Flags().BoolVar(&f.all, "approval-all", false, "every withdrawal and batch waits for a second key's approval (--approval-all=false turns it off)")
	cmd.Flags().StringVar(&f.expiry, "approval-expiry", "", "how long one waits for approval before it is rejected as approval_expired, e.g. 24h, 2d (default 24h)")
}

// changed says whether any of the flags was given.
func (f *approvalFlags) changed(cmd *cobra.Command) bool {
	return cmd.Flags().Changed("approval-threshold") || cmd.Flags().Changed("approval-all") || cmd.Flags().Changed("approval-expiry")
}

// rule is the integrator's rule r with the given flags applied.
func (f *approvalFlags) rule(cmd *cobra.Command, r storage.ApprovalRule) (storage.ApprovalRule, error) {
	if cmd.Flags().Changed("approval-threshold") {
		if t := strings.TrimSpace(f.threshold); strings.EqualFold(t, "none") || t == "" {
			r.Threshold = nil
		} else {
			m, err := money.ParseAmount([]byte(t))
			if err != nil {
				return r, fmt.Errorf("--approval-threshold %q is not an amount in reais (e.g. 1000.00) or none", t)
			}
			r.Threshold = &m
		}
	}
	if cmd.Flags().Changed("approval-all") {
		r.All = f.all
	}
	if cmd.Flags().Changed("approval-expiry") {
		d, err := parseHold(f.expiry)
		if err != nil || d <= 0 || d > storage.MaxApprovalExpiry {
			return r, fmt.Errorf("--approval-expiry %q must be a duration above 0 and at most 30d (e.g. 24h, 2d)", f.expiry)
		}
		r.Expiry = d
	}
	return r, nil
}

// approvalView is how commands print an approval rule.
type approvalView struct {
	Threshold *money.Money `json:"threshold"`
	All       bool         `json:"all"`
	Expiry    string       `json:"expiry"`
}

func viewApproval(r storage.ApprovalRule) approvalView {
	return approvalView{Threshold: r.Threshold, All: r.All, Expiry: formatHold(r.Expiry)}
}

// describeApproval is the rule in a line.
func describeApproval(r storage.ApprovalRule) string {
	switch {
	case r.All:
		return "every withdrawal and batch waits for approval, for " + formatHold(r.Expiry)
	case r.Threshold != nil:
		return fmt.Sprintf("withdrawals and batches above R$ %s wait for approval, for %s", *r.Threshold, formatHold(r.Expiry))
	}
	return "no approval needed"
}
