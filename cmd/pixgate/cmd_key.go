package main

import (
	"fmt"
	"net/netip"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/pixgate/pixgate/storage"
)

type keyView struct {
	ID           int64          `json:"id"`
	IntegratorID int64          `json:"integrator_id"`
	PublicID     string         `json:"public_id"`
	Secret       string         `json:"secret,omitempty"`
	Token        string         `json:"token,omitempty"`
	Scopes       []string       `json:"scopes"`
	IPAllowlist  []netip.Prefix `json:"ip_allowlist"`
	CreatedAt    time.Time      `json:"created_at"`
	RevokedAt    *time.Time     `json:"revoked_at,omitempty"`
}

func viewKey(k storage.APIKey) keyView {
	return keyView{ID: k.ID, IntegratorID: k.IntegratorID, PublicID: k.PublicID, Scopes: k.Scopes,
		IPAllowlist: k.IPAllowlist, CreatedAt: k.CreatedAt, RevokedAt: k.RevokedAt}
}

func (c *cli) keyCommand() *cobra.Command {
	cmd := &cobra.Command{Use: "key", Short: "Create, list and revoke API keys"}
	cmd.AddCommand(c.keyCreateCommand(), c.keyRevokeCommand(), c.keyListCommand())
	return cmd
}

func (c *cli) keyCreateCommand() *cobra.Command {
	var (
		integrator    int64
		scopes, allow []string
		asJSON        bool
	)
	cmd := &cobra.Command{
		Use:     "create",
		Short:   "Create an API key for an integrator; its secret is printed only here",
		Example: "  pixgate key create --integrator 1 --scopes charges:write,charges:read --ip-allowlist 203.0.113.0/24",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			nk := storage.NewKey{IntegratorID: integrator, Scopes: scopes}
			for _, s := range allow {
				p, err := parsePrefix(s)
				if err != nil {
					return err
				}
				nk.IPAllowlist = append(nk.IPAllowlist, p)
			}
			return c.withDB(cmd.Context(), func(db *storage.DB) error {
				if err := requireIntegrator(cmd.Context(), db, integrator); err != nil {
					return err
				}
				key, creds, err := db.CreateKey(cmd.Context(), nk)
				if err != nil {
					return err
				}
				v := viewKey(key)
				v.Secret, v.Token = creds.Secret, creds.Token()
				if asJSON {
					return printJSON(c.stdout, v)
				}
				c.printf("key %s created for integrator %d\n  scopes: %s\n", key.PublicID, integrator, strings.Join(key.Scopes, ", "))
				c.printf("  secret: %s\n  v1 token: Authorization: Bearer %s\nThe secret is shown only now.\n", creds.Secret, creds.Token())
				return nil
			})
		},
	}
	cmd.Flags().Int64Var(&integrator, "integrator", 0, "integrator id (required)")
	cmd.Flags().StringSliceVar(&scopes, "scopes", nil, "comma-separated scopes (default: all): "+strings.Join(storage.AllScopes, ","))
	cmd.Flags().StringSliceVar(&allow, "ip-allowlist", nil, "comma-separated CIDRs or addresses allowed to use the key (default: any)")
	addJSONFlag(cmd, &asJSON)
	_ = cmd.MarkFlagRequired("integrator")
	return cmd
}

// parsePrefix accepts a CIDR or a bare address (a /32 or /128).
func parsePrefix(s string) (netip.Prefix, error) {
	s = strings.TrimSpace(s)
	if p, err := netip.ParsePrefix(s); err == nil {
		return p.Masked(), nil
	}
	a, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Prefix{}, fmt.Errorf("--ip-allowlist: %q is neither a CIDR nor an IP address", s)
	}
	return netip.PrefixFrom(a, a.BitLen()), nil
}

func (c *cli) keyRevokeCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "revoke PUBLIC_ID",
		Short: "Revoke an API key at once",
		Args:  oneArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			return c.withDB(cmd.Context(), func(db *storage.DB) error {
				k, err := db.Key(cmd.Context(), args[0])
				if err != nil {
					return notFound("key", args[0], err)
				}
				already := k.RevokedAt != nil
				if !already {
					if err := db.RevokeKey(cmd.Context(), args[0]); err != nil {
						return notFound("key", args[0], err)
					}
				}
				if asJSON {
					return printJSON(c.stdout, map[string]any{"public_id": args[0], "revoked": true, "already_revoked": already})
				}
				if already {
					c.printf("key %s was already revoked on %s\n", args[0], k.RevokedAt.Format(timeLayout))
					return nil
				}
				c.printf("key %s revoked\n", args[0])
				return nil
			})
		},
	}
	addJSONFlag(cmd, &asJSON)
	return cmd
}

func (c *cli) keyListCommand() *cobra.Command {
	var (
		integrator int64
		asJSON     bool
	)
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List an integrator's API keys (never their secrets)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return c.withDB(cmd.Context(), func(db *storage.DB) error {
				if err := requireIntegrator(cmd.Context(), db, integrator); err != nil {
					return err
				}
				keys, err := db.ListKeys(cmd.Context(), integrator)
				if err != nil {
					return err
				}
				views := make([]keyView, len(keys))
				for i, k := range keys {
					views[i] = viewKey(k)
				}
				if asJSON {
					return printJSON(c.stdout, map[string]any{"keys": views})
				}
				if len(keys) == 0 {
					c.printf("integrator %d has no API keys: pixgate key create --integrator %d makes one\n", integrator, integrator)
					return nil
				}
				tw := table(c.stdout)
				c.printfTo(tw, "PUBLIC ID\tSCOPES\tIP ALLOWLIST\tCREATED\tREVOKED\n")
				for _, k := range keys {
					revoked := "-"
					if k.RevokedAt != nil {
						revoked = k.RevokedAt.Format(timeLayout)
					}
					c.printfTo(tw, "%s\t%s\t%s\t%s\t%s\n", k.PublicID, strings.Join(k.Scopes, ","), allowlistText(k.IPAllowlist),
						k.CreatedAt.Format(timeLayout), revoked)
				}
				return tw.Flush()
			})
		},
	}
	cmd.Flags().Int64Var(&integrator, "integrator", 0, "integrator id (required)")
	addJSONFlag(cmd, &asJSON)
	_ = cmd.MarkFlagRequired("integrator")
	return cmd
}

// allowlistText prints an allowlist as the flag takes it, or "any".
func allowlistText(list []netip.Prefix) string {
	if len(list) == 0 {
		return "any"
	}
	parts := make([]string, len(list))
	for i, p := range list {
		parts[i] = p.String()
	}
	return strings.Join(parts, ",")
}
