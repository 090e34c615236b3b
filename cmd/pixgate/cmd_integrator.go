package main

import (
	"fmt"
	"net/mail"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// integratorView is how commands print an integrator.
type integratorView struct {
	ID             int64                    `json:"id"`
	Name           string                   `json:"name"`
	Email          string                   `json:"email"`
	PublicID       string                   `json:"public_id,omitempty"`
	Secret         string                   `json:"secret,omitempty"`
	Token          string                   `json:"token,omitempty"`
	WebhookSecret  string                   `json:"webhook_secret,omitempty"`
	Fees           map[string]money.FeeView `json:"fees"`
	CashInHold     string                   `json:"cashin_hold"`
	SameHolder     bool                     `json:"same_holder"`
	PayoutDeadline string                   `json:"payout_deadline"`
	Approval       approvalView             `json:"approval"`
	HeldCharges    *int                     `json:"held_charges,omitempty"`
	ParentID       *int64                   `json:"parent_id,omitempty"`
	CreatedAt      time.Time                `json:"created_at"`
}

func viewIntegrator(in storage.Integrator) integratorView {
	return integratorView{ID: in.ID, Name: in.Name, Email: in.Email, CreatedAt: in.CreatedAt, CashInHold: formatHold(in.CashInHold),
		SameHolder: in.SameHolder, ParentID: in.ParentID, PayoutDeadline: formatHold(in.PayoutDeadline), Approval: viewApproval(in.Approval),
		Fees: map[string]money.FeeView{"cashin": in.CashIn.View("cashin"), "cashout": in.CashOut.View("cashout")}}
}

func (c *cli) integratorCommand() *cobra.Command {
	cmd := &cobra.Command{Use: "integrator", Short: "Create, list and update integrators"}
	cmd.AddCommand(c.integratorCreateCommand(), c.integratorListCommand(), c.integratorUpdateCommand())
	return cmd
}

func (c *cli) integratorCreateCommand() *cobra.Command {
	var (
		name, email, cashin, cashout, hold string
		asJSON                             bool
		parent                             int64
	)
	cmd := &cobra.Command{
		Use:   "create",
		Short: "Create an integrator with its fee rules and a first API key",
		Long: `Create an integrator, its wallet accounts and a first API key with every scope.
The key's secret and the webhook signing secret are printed only here.`,
		Example: `  pixgate integrator create --name "Loja Exemplo" --email dev@loja.example --cashin-fee percent:1.5 --cashout-fee fixed:0.50
  pixgate integrator create --parent 1 --name "Vendedor" --email vendedor@loja.example --cashout-fee fixed:0.50`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ni, err := parseNewIntegrator(name, email, cashin, cashout, hold)
			if err != nil {
				return err
			}
			if cmd.Flags().Changed("parent") {
				if parent <= 0 {
					return fmt.Errorf("--parent must be an integrator's id")
				}
				ni.ParentID = &parent
			}
			return c.withDB(cmd.Context(), func(db *storage.DB) error {
				in, creds, err := db.CreateIntegrator(cmd.Context(), ni)
				if err != nil {
					return err
				}
				v := viewIntegrator(in)
				v.PublicID, v.Secret, v.Token, v.WebhookSecret = creds.PublicID, creds.Secret, creds.Token(), in.WebhookSecret
				if asJSON {
					return printJSON(c.stdout, v)
				}
				c.printf("integrator %d created: %s <%s>\n", in.ID, in.Name, in.Email)
				if in.ParentID != nil {
					c.printf("  sub-account of:  integrator %d\n", *in.ParentID)
				}
				c.printf("  cash-in fee:    %s\n  cash-out fee:   %s\n", in.CashIn, in.CashOut)
				c.printf("  cash-in hold:   %s\n", formatHold(in.CashInHold))
				c.printf("  public_id:      %s\n  secret:         %s\n  webhook secret: %s\n", creds.PublicID, creds.Secret, in.WebhookSecret)
				c.printf("  v1 token:       Authorization: Bearer %s\n", creds.Token())
				c.printf("The secrets are shown only now; store them safely.\n")
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&name, "name", "", "integrator name (required)")
	cmd.Flags().StringVar(&email, "email", "", "contact e-mail, unique (required)")
	cmd.Flags().StringVar(&cashin, "cashin-fee", "percent:0", "cash-in fee: percent:N (up to 4 decimals) or fixed:N.NN")
	cmd.Flags().StringVar(&cashout, "cashout-fee", "fixed:0", "cash-out fee: percent:N or fixed:N.NN")
	cmd.Flags().Int64Var(&parent, "parent", 0, "make it a sub-account of this integrator (it receives that integrator's split charges' shares)")
	cmd.Flags().StringVar(&hold, "cashin-hold", "0", "how long a paid charge's net stays pending before it is available, e.g. 24h, 2d (0: at once)")
	addJSONFlag(cmd, &asJSON)
	_ = cmd.MarkFlagRequired("name")
	_ = cmd.MarkFlagRequired("email")
	return cmd
}

func parseNewIntegrator(name, email, cashin, cashout, hold string) (storage.NewIntegrator, error) {
	name, email = strings.TrimSpace(name), strings.TrimSpace(email)
	if name == "" {
		return storage.NewIntegrator{}, fmt.Errorf("--name must not be empty")
	}
	if a, err := mail.ParseAddress(email); err != nil || a.Address != email {
		return storage.NewIntegrator{}, fmt.Errorf("--email %q is not a valid e-mail address", email)
	}
	in, err := money.ParseFeeRule(cashin)
	if err != nil {
		return storage.NewIntegrator{}, fmt.Errorf("--cashin-fee: %w", err)
	}
	out, err := money.ParseFeeRule(cashout)
	if err != nil {
		return storage.NewIntegrator{}, fmt.Errorf("--cashout-fee: %w", err)
	}
	d, err := parseHold(hold)
	if err != nil {
		return storage.NewIntegrator{}, err
	}
	return storage.NewIntegrator{Name: name, Email: email, CashIn: in, CashOut: out, CashInHold: d}, nil
}

func (c *cli) integratorListCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List integrators with their fees",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return c.withDB(cmd.Context(), func(db *storage.DB) error {
				list, err := db.ListIntegrators(cmd.Context())
				if err != nil {
					return err
				}
				views := make([]integratorView, len(list))
				for i, in := range list {
					views[i] = viewIntegrator(in)
				}
				if asJSON {
					return printJSON(c.stdout, map[string]any{"integrators": views})
				}
				if len(list) == 0 {
					c.printf("no integrators yet: pixgate integrator create adds one\n")
					return nil
				}
				tw := table(c.stdout)
				c.printfTo(tw, "ID\tNAME\tEMAIL\tCASH-IN FEE\tCASH-OUT FEE\tCASH-IN HOLD\tCREATED\n")
				for _, in := range list {
					c.printfTo(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", in.ID, in.Name, in.Email, in.CashIn, in.CashOut, formatHold(in.CashInHold),
						in.CreatedAt.Format(timeLayout))
				}
				return tw.Flush()
			})
		},
	}
	addJSONFlag(cmd, &asJSON)
	return cmd
}
