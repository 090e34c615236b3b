package main

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/pixgate/pixgate/providerclient/connectors"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// providerView is how commands print a provider. The default provider is
// no record: it is what PIXGATE_PROVIDER_* say in this process's
// environment.
type providerView struct {
	Name            string       `json:"name"`
	Kind            string       `json:"kind"`
	URL             string       `json:"url"`
	ClientID        string       `json:"client_id,omitempty"`
	ClientSecretRef string       `json:"client_secret_ref,omitempty"`
	CertFile        string       `json:"cert_file,omitempty"`
	KeyFile         string       `json:"key_file,omitempty"`
	CAFile          string       `json:"ca_file,omitempty"`
	PixKey          string       `json:"pix_key,omitempty"`
	MaxPerPix       *money.Money `json:"max_per_pix,omitempty"`
	MaxPerPixNight  *money.Money `json:"max_per_pix_night,omitempty"`
	Enabled         bool         `json:"enabled"`
	FromEnvironment bool         `json:"from_environment,omitempty"`
	CreatedAt       *time.Time   `json:"created_at,omitempty"`
	// Float is the money PixGate expects the provider to hold (provider
	// list alone).
	Float *money.Money `json:"float,omitempty"`
}

func viewProvider(p storage.Provider) providerView {
	v := providerView{Name: p.Name, Kind: p.Kind, URL: maskURL(p.URL), ClientID: p.ClientID, ClientSecretRef: p.ClientSecretRef,
		CertFile: p.CertFile, KeyFile: p.KeyFile, CAFile: p.CAFile, PixKey: p.PixKey, Enabled: p.Enabled, CreatedAt: &p.CreatedAt}
	if p.Limit.Max > 0 {
		v.MaxPerPix = &p.Limit.Max
	}
	if p.Limit.Night > 0 {
		v.MaxPerPixNight = &p.Limit.Night
	}
	return v
}

// defaultProviderView is the provider of PIXGATE_PROVIDER_*.
func (c *cli) defaultProviderView() providerView {
	return providerView{Name: storage.DefaultProvider, Kind: strings.ToLower(c.cfg.ProviderKind), URL: maskURL(c.cfg.ProviderURL),
		ClientID: c.cfg.ProviderClientID, ClientSecretRef: "env:PIXGATE_PROVIDER_CLIENT_SECRET", CertFile: c.cfg.ProviderCertFile,
		KeyFile: c.cfg.ProviderKeyFile, CAFile: c.cfg.ProviderCAFile, PixKey: c.cfg.ProviderPixKey, Enabled: true, FromEnvironment: true}
}

func (c *cli) providerCommand() *cobra.Command {
	cmd := &cobra.Command{Use: "provider", Short: "Add, list, update and disable settlement providers",
		Long: `Settlement providers beside the default one (PIXGATE_PROVIDER_*, named "default").
A record holds no secret: the client secret is read at start from the
environment variable or the file it names. api and worker processes build
their connectors at start: restart them after adding or changing a provider.
Routes (pixgate route) say which providers take which integrator's money.`}
	cmd.AddCommand(c.providerAddCommand(), c.providerListCommand(), c.providerUpdateCommand(),
		c.providerEnableCommand("disable", false), c.providerEnableCommand("enable", true), c.providerBalanceCommand(),
		c.providerAdjustCommand())
	return cmd
}

// providerFlags are the settings add and update take.
type providerFlags struct {
	kind, url, clientID, secretEnv, secretFile, certFile, keyFile, caFile, pixKey string
	maxPerPix, maxPerPixNight                                                     string
}

func (f *providerFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.kind, "kind", "", "the provider's contract: "+strings.Join(connectors.Kinds, ", "))
	fs.StringVar(&f.url, "url", "", "the provider's base URL (http or https)")
	fs.StringVar(&f.clientID, "client-id", "", "client id (woovi: the AppID)")
	fs.StringVar(&f.secretEnv, "client-secret-env", "", "the environment variable that holds the client secret in api and worker processes")
	fs.StringVar(&f.secretFile, "client-secret-file", "", "the file that holds the client secret (instead of --client-secret-env)")
	fs.StringVar(&f.certFile, "cert-file", "", "efi: the client certificate, a PEM file")
	fs.StringVar(&f.keyFile, "key-file", "", "efi: the client certificate's private key, a PEM file (default: --cert-file)")
	fs.StringVar(&f.caFile, "ca-file", "", "the CA that signs the provider's server certificate, a PEM file")
	fs.StringVar(&f.pixKey, "pix-key", "", "efi: the account's PIX key")
	fs.StringVar(&f.maxPerPix, "max-per-pix", "", "the largest PIX the provider takes, in reais, e.g. 15000.00 (Res. BCB 494-498/2025); 0 for none")
	fs.StringVar(&f.maxPerPixNight, "max-per-pix-night", "", "the largest PIX from 20:00 to 06:00 America/Sao_Paulo, in reais; 0 for none")
}

// apply sets on p the flags fs was given (all of them for a new record)
// and checks the result, each error naming its flag.
func (f *providerFlags) apply(fs *pflag.FlagSet, p *storage.Provider) error {
	set := func(name string, dst *string, v string) {
		if fs.Changed(name) {
			*dst = strings.TrimSpace(v)
		}
	}
	set("kind", &p.Kind, strings.ToLower(f.kind))
	set("url", &p.URL, f.url)
	set("client-id", &p.ClientID, f.clientID)
	set("cert-file", &p.CertFile, f.certFile)
	set("key-file", &p.KeyFile, f.keyFile)
	set("ca-file", &p.CAFile, f.caFile)
	set("pix-key", &p.PixKey, f.pixKey)
	switch {
	case fs.Changed("client-secret-env") && fs.Changed("client-secret-file"):
		return errors.New("--client-secret-env and --client-secret-file: give one of them")
	case fs.Changed("client-secret-env"):
		if !envNameRE.MatchString(f.secretEnv) {
			return fmt.Errorf("--client-secret-env %q is not an environment variable name", f.secretEnv)
		}
		p.ClientSecretRef = "env:" + f.secretEnv
	case fs.Changed("client-secret-file"):
		if !strings.HasPrefix(f.secretFile, "/") {
			return fmt.Errorf("--client-secret-file %q must be an absolute path", f.secretFile)
		}
		p.ClientSecretRef = "file:" + f.secretFile
	}
	for _, l := range []struct {
		flag, v string
		dst     *money.Money
	}{{"max-per-pix", f.maxPerPix, &p.Limit.Max}, {"max-per-pix-night", f.maxPerPixNight, &p.Limit.Night}} {
		if !fs.Changed(l.flag) {
			continue
		}
		m, err := money.Parse(strings.TrimSpace(l.v))
		if err != nil || m < 0 {
			return fmt.Errorf("--%s %q is not an amount in reais, such as 15000.00 (0 for none)", l.flag, l.v)
		}
		*l.dst = m
	}
	if !slices.Contains(connectors.Kinds, p.Kind) {
		return fmt.Errorf("--kind %q is not one of %s", p.Kind, strings.Join(connectors.Kinds, ", "))
	}
	u, err := url.Parse(p.URL)
	switch {
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		return fmt.Errorf("--url %q is not an http or https URL", maskURL(p.URL))
	case u.User != nil:
		// The record is stored and printed as it is: a credential has no
		// place in it.
		return errors.New("--url: a provider's URL carries no user or password; the client secret goes in --client-secret-env or --client-secret-file")
	}
	return nil
}

// limitText is a provider's per-PIX limits for the list: "-" for none.
func limitText(max, night *money.Money) string {
	out := "-"
	if max != nil {
		out = max.String()
	}
	if night != nil {
		out += " (night " + night.String() + ")"
	}
	return out
}

// providerError words storage's refusals after the flag at fault.
func providerError(name string, err error) error {
	switch {
	case errors.Is(err, storage.ErrProviderExists):
		return fmt.Errorf("--name: a provider named %q already exists (change it with pixgate provider update %s)", name, name)
	case errors.Is(err, storage.ErrProviderName):
		return fmt.Errorf("--name %q: %w", name, err)
	case errors.Is(err, storage.ErrUnknownProvider):
		return fmt.Errorf("provider %q not found (pixgate provider list shows them)", name)
	}
	return err
}

func (c *cli) providerAddCommand() *cobra.Command {
	var (
		name   string
		flags  providerFlags
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "add",
		Short: "Add a settlement provider, enabled",
		Example: `  PROVIDER_B_SECRET=… pixgate provider add --name b --kind efi --url https://pix.api.efipay.com.br \
    --client-id Client_Id_… --client-secret-env PROVIDER_B_SECRET --cert-file /etc/pixgate/b.pem --pix-key chave@example.com`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			p := storage.Provider{Name: strings.TrimSpace(name)}
			if p.Name == storage.DefaultProvider {
				return errors.New(`--name "default" is the provider of PIXGATE_PROVIDER_*; choose another name`)
			}
			if err := flags.apply(cmd.Flags(), &p); err != nil {
				return err
			}
			return c.withDB(cmd.Context(), func(db *storage.DB) error {
				added, err := db.AddProvider(cmd.Context(), p)
				if err != nil {
					return providerError(p.Name, err)
				}
				if asJSON {
					return printJSON(c.stdout, viewProvider(added))
				}
				c.printf("provider %s added (%s, %s), enabled; it takes nothing until a route names it (pixgate route set).\n",
					added.Name, added.Kind, added.URL)
				c.printf("Restart api and worker processes to build its connector.\n")
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&name, "name", "", "the provider's name: lower-case letters, digits, - and _ (required)")
	flags.register(cmd.Flags())
	addJSONFlag(cmd, &asJSON)
	_ = cmd.MarkFlagRequired("name")
	_ = cmd.MarkFlagRequired("kind")
	_ = cmd.MarkFlagRequired("url")
	return cmd
}

func (c *cli) providerUpdateCommand() *cobra.Command {
	var (
		flags  providerFlags
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "update NAME",
		Short: "Change a provider's settings (only the flags given)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if args[0] == storage.DefaultProvider {
				return errors.New(`the provider "default" is configured by PIXGATE_PROVIDER_* (see pixgate env)`)
			}
			return c.withDB(cmd.Context(), func(db *storage.DB) error {
				p, err := db.ProviderByName(cmd.Context(), args[0])
				if err != nil {
					return providerError(args[0], err)
				}
				if err := flags.apply(cmd.Flags(), &p); err != nil {
					return err
				}
				if p, err = db.UpdateProvider(cmd.Context(), p); err != nil {
					return providerError(args[0], err)
				}
				if asJSON {
					return printJSON(c.stdout, viewProvider(p))
				}
				c.printf("provider %s updated; restart api and worker processes to use the new settings.\n", p.Name)
				return nil
			})
		},
	}
	flags.register(cmd.Flags())
	addJSONFlag(cmd, &asJSON)
	return cmd
}

func (c *cli) providerEnableCommand(verb string, enabled bool) *cobra.Command {
	var asJSON bool
	short := "Take a provider out of every route: it takes no new charge or withdrawal; what it holds stays with it until settled"
	if enabled {
		short = "Put a disabled provider back into the routes that name it"
	}
	cmd := &cobra.Command{
		Use:   verb + " NAME",
		Short: short,
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if args[0] == storage.DefaultProvider {
				return errors.New(`the provider "default" is no record: take it out of the routes instead (pixgate route set)`)
			}
			return c.withDB(cmd.Context(), func(db *storage.DB) error {
				p, err := db.SetProviderEnabled(cmd.Context(), args[0], enabled)
				if err != nil {
					return providerError(args[0], err)
				}
				if asJSON {
					return printJSON(c.stdout, viewProvider(p))
				}
				c.printf("provider %s %sd; routes follow within a few seconds.\n", p.Name, verb)
				return nil
			})
		},
	}
	addJSONFlag(cmd, &asJSON)
	return cmd
}

func (c *cli) providerListCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the providers: the default one and every record",
		Long: `List the providers. Breaker state and health live in the running
processes: each api and worker exports them on /metrics (pixgate_provider_*,
labelled by provider).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return c.withDB(cmd.Context(), func(db *storage.DB) error {
				ps, err := db.Providers(cmd.Context())
				if err != nil {
					return err
				}
				floats, err := db.FloatBalances(cmd.Context())
				if err != nil {
					return err
				}
				views := []providerView{c.defaultProviderView()}
				for _, p := range ps {
					views = append(views, viewProvider(p))
				}
				for i := range views {
					f := floats[views[i].Name]
					views[i].Float = &f
				}
				if asJSON {
					return printJSON(c.stdout, map[string]any{"providers": views})
				}
				tw := table(c.stdout)
				c.printfTo(tw, "NAME\tKIND\tURL\tENABLED\tFLOAT\tMAX PER PIX\n")
				for _, v := range views {
					c.printfTo(tw, "%s\t%s\t%s\t%v\t%s\t%s\n", v.Name, v.Kind, v.URL, v.Enabled, *v.Float, limitText(v.MaxPerPix, v.MaxPerPixNight))
				}
				if err := tw.Flush(); err != nil {
					return err
				}
				c.printf("FLOAT is what PixGate expects each provider to hold (pixgate provider balance compares it with theirs).\n")
				c.printf("Breaker state and health: pixgate_provider_* on each api and worker /metrics.\n")
				return nil
			})
		},
	}
	addJSONFlag(cmd, &asJSON)
	return cmd
}
