// Command pixgate is PixGate's one binary: the API, the workers, the sandbox
// provider, the development stack, migrations and the operator commands.
package main

import (
	"context"
	"crypto/rsa"
	"errors"
	"fmt"
	"github.com/pixgate/pixgate/storage/money/due"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/redis/go-redis/v9"
	"github.com/spf13/cobra"

	"github.com/pixgate/pixgate/storage"
)

func main() { os.Exit(cliMain()) }

// cliMain runs the command line of this process until it ends or a SIGTERM
// or Ctrl-C asks it to stop, and returns the exit code.
func cliMain() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return run(ctx, os.Args[1:], environMap(os.Environ()), os.Stdout, os.Stderr)
}

// run executes one command line and returns the process exit code.
func run(ctx context.Context, args []string, environ map[string]string, stdout, stderr io.Writer) int {
	c := &cli{environ: environ, stdout: stdout, stderr: stderr}
	stopTracing, err := startTracing(ctx, environ)
	if err != nil {
		fmt.Fprintln(stderr, "pixgate: traces:", err)
		return 1
	}
	defer stopTracing()
	root := c.rootCommand()
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err = root.ExecuteContext(ctx)
	if err == nil {
		return 0
	}
	var ee exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	fmt.Fprintln(stderr, "pixgate:", err)
	return 1
}

// exitError ends a command with a given code after it printed its own report.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

// cli carries what every command needs; it replaces global state.
type cli struct {
	environ map[string]string
	stdout  io.Writer
	stderr  io.Writer
	cfg     config
	log     *slog.Logger
	bound   map[string]net.Listener // see bind
	// servesAPI: this process serves the API, whose database sessions
	// have the timeouts of PIXGATE_DATABASE_{LOCK,QUERY,IDLE_TX}_TIMEOUT.
	servesAPI bool
	// devToday: the in-process sandbox's day, which pixgate dev gives the
	// worker's recurrence scheduler, so that moving the sandbox's clock
	// (POST /sandbox/clock) moves both; nil elsewhere.
	devToday func() due.Date
	// wooviKey signs the woovi sandbox's webhooks (see sandboxWooviKey).
	wooviKey *rsa.PrivateKey
	// fromDev names the settings an operator command took from the
	// pixgate dev running beside it (see useDevSettings).
	fromDev map[string]bool
}

func (c *cli) rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:           "pixgate",
		Short:         "PixGate: a PIX payment gateway",
		Version:       buildVersion(),
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := loadConfig(c.environ)
			if err != nil {
				return err
			}
			c.cfg = cfg
			c.setLogger(newLogger(c.stderr, cfg.LogLevel, cfg.LogFormat))
			if takesDevSettings(cmd) {
				if err := c.useDevSettings(); err != nil {
					return err
				}
			}
			c.warnUnknownVars()
			return nil
		},
	}
	root.AddCommand(
		c.migrateCommand(),
		c.devCommand(),
		c.apiCommand(),
		c.workerCommand(),
		c.sandboxCommand(),
		c.integratorCommand(),
		c.keyCommand(),
		c.walletCommand(),
		c.auditCommand(),
		c.postbacksCommand(),
		c.payoutsCommand(),
		c.lookupsCommand(),
		c.transferCommand(),
		c.reconcileCommand(),
		c.providerCommand(),
		c.routeCommand(),
		c.envCommand(),
		c.versionCommand(),
		c.demoCommand(),
		c.monitoringUserCommand(),
	)
	root.SetVersionTemplate("pixgate {{.Version}}\n")
	root.SetFlagErrorFunc(flagError)
	return root
}

// openDB opens the database for an operator command, which never creates
// or migrates: a mistyped database name must fail loudly, not come up
// empty and report a clean ledger.
func (c *cli) openDB(ctx context.Context) (*storage.DB, error) {
	db, err := storage.Open(ctx, storage.Config{URL: c.cfg.DatabaseURL, MaxConns: c.cfg.DatabaseMaxConns,
		AcquireTimeout: c.cfg.DatabaseAcquireTimeout, Timeouts: c.sessionTimeouts()})
	if errors.Is(err, storage.ErrNoDatabase) {
		return nil, fmt.Errorf("%w (PIXGATE_DATABASE_URL); create and migrate it with pixgate migrate", err)
	}
	if err != nil {
		return nil, postgresError(err)
	}
	if err := db.CheckMigrated(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("%w (PIXGATE_DATABASE_URL); run pixgate migrate first", err)
	}
	return db, nil
}

// openMigratedDB opens the database, creating it when missing, and applies
// the migrations: what migrate, dev, api and worker do.
func (c *cli) openMigratedDB(ctx context.Context) (*storage.DB, error) {
	db, err := storage.Open(ctx, storage.Config{URL: c.cfg.DatabaseURL, MaxConns: c.cfg.DatabaseMaxConns,
		AcquireTimeout: c.cfg.DatabaseAcquireTimeout, CreateIfMissing: true, Timeouts: c.sessionTimeouts()})
	if err != nil {
		return nil, postgresError(err)
	}
	if _, err := db.Migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	limit, err := c.cfg.defaultPixLimit() // checked with the configuration
	if err == nil {
		db.SetDefaultPixLimit(limit)
	}
	return db, nil
}

// sessionTimeouts are the database session timeouts of a process that
// serves the API (pixgate api, and pixgate dev, whose workers share its
// pool); none for the worker, whose long operations must finish, nor for
// the operator commands.
func (c *cli) sessionTimeouts() storage.SessionTimeouts {
	if !c.servesAPI {
		return storage.SessionTimeouts{}
	}
	return storage.SessionTimeouts{Lock: c.cfg.DatabaseLockTimeout, Statement: c.cfg.DatabaseStatementTimeout,
		IdleInTransaction: c.cfg.DatabaseIdleInTxTimeout}
}

// withDB runs fn with an open, migrated database and closes it afterwards.
func (c *cli) withDB(ctx context.Context, fn func(db *storage.DB) error) error {
	db, err := c.openDB(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	return fn(db)
}

// setLogger makes l the process's logger, go-redis's included: its pool
// prints a raw line per failed dial, while PixGate reports an unreachable
// Redis itself, once, in its own words. Those lines go to debug.
func (c *cli) setLogger(l *slog.Logger) {
	c.log = l
	redis.SetLogger(redisLog{l})
}

type redisLog struct{ log *slog.Logger }

func (r redisLog) Printf(ctx context.Context, format string, v ...any) {
	r.log.DebugContext(ctx, "redis client: "+strings.TrimPrefix(fmt.Sprintf(format, v...), "redis: "))
}

func newLogger(w io.Writer, level, format string) *slog.Logger {
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(level)); err != nil {
		lv = slog.LevelInfo
	}
	opts := &slog.HandlerOptions{Level: lv, ReplaceAttr: durationText}
	if strings.EqualFold(format, "text") {
		return slog.New(traceHandler{slog.NewTextHandler(w, opts)})
	}
	return slog.New(traceHandler{slog.NewJSONHandler(w, opts)})
}

// durationText writes a duration as people read one ("15s", "1m30s"):
// the JSON handler would write it as a number of nanoseconds.
func durationText(_ []string, a slog.Attr) slog.Attr {
	if a.Value.Kind() == slog.KindDuration {
		a.Value = slog.StringValue(a.Value.Duration().String())
	}
	return a
}

func environMap(kv []string) map[string]string {
	m := make(map[string]string, len(kv))
	for _, s := range kv {
		if k, v, ok := strings.Cut(s, "="); ok {
			m[k] = v
		}
	}
	return m
}
