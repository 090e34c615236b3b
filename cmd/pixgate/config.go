package main

import (
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/caarlos0/env/v11"

	"github.com/pixgate/pixgate/storage/money"
)

// config is every setting of every process, read once from PIXGATE_*
// environment variables and passed down as each package's own Config.
// The defaults make `make run` work on a machine with Postgres and Redis on
// their standard local ports. The desc tags feed `pixgate env` and the
// README's table (a test keeps the README in step).
type config struct {
	DatabaseURL      string `env:"PIXGATE_DATABASE_URL" envDefault:"postgres://postgres@127.0.0.1:5432/pixgate?sslmode=disable" desc:"Postgres URL; the database is created if missing"`
	DatabaseMaxConns int32  `env:"PIXGATE_DATABASE_MAX_CONNS" envDefault:"20" desc:"connections per process"`
	RedisURL         string `env:"PIXGATE_REDIS_URL" envDefault:"redis://127.0.0.1:6379/0" desc:"Redis URL (queues, access tokens, rate limits)"`

	HTTPAddr       string `env:"PIXGATE_HTTP_ADDR" envDefault:"127.0.0.1:8080" desc:"API listen address"`
	WorkerAddr     string `env:"PIXGATE_WORKER_ADDR" envDefault:"127.0.0.1:8081" desc:"worker side server: /healthz, /metrics, /monitoring"`
	APIMetricsAddr string `env:"PIXGATE_API_METRICS_ADDR" envDefault:"127.0.0.1:8082" desc:"pixgate api's /metrics listener (kept off the public port)"`
	PublicBaseURL  string `env:"PIXGATE_PUBLIC_BASE_URL" envDefault:"http://127.0.0.1:8080" desc:"URL where the provider reaches PixGate's webhook"`
	LogLevel       string `env:"PIXGATE_LOG_LEVEL" envDefault:"info" desc:"debug, info, warn or error"`
	LogFormat      string `env:"PIXGATE_LOG_FORMAT" envDefault:"json" desc:"json or text (pixgate dev uses text unless set)"`

	MaxAmount         string   `env:"PIXGATE_MAX_AMOUNT" envDefault:"100000.00" desc:"largest amount of one charge or withdrawal, in reais"`
	V1RatePerMinute   int      `env:"PIXGATE_V1_RATE_PER_MINUTE" envDefault:"600" desc:"requests per minute per v1 API key (negative: no limit)"`
	BodyLimit         int      `env:"PIXGATE_BODY_LIMIT" envDefault:"65536" desc:"largest request body, in bytes"`
	ProxyHeader       string   `env:"PIXGATE_PROXY_HEADER" desc:"header with the client address behind a proxy; use one the proxy overwrites, e.g. X-Real-IP"`
	TrustedProxies    []string `env:"PIXGATE_TRUSTED_PROXIES" desc:"comma-separated proxy IPs/CIDRs whose PIXGATE_PROXY_HEADER is believed"`
	PostbackAllowHTTP bool     `env:"PIXGATE_POSTBACK_ALLOW_HTTP" envDefault:"false" desc:"accept http:// postback URLs (development; pixgate dev sets it)"`

	PostbackAllowPrivate    bool          `env:"PIXGATE_POSTBACK_ALLOW_PRIVATE" envDefault:"false" desc:"let postbacks reach loopback and private addresses (development; pixgate dev sets it)"`
	PostbackTimeout         time.Duration `env:"PIXGATE_POSTBACK_TIMEOUT" envDefault:"10s" desc:"timeout of one postback attempt"`
	PostbackMaxAge          time.Duration `env:"PIXGATE_POSTBACK_MAX_AGE" envDefault:"72h" desc:"how long a failing postback keeps being retried"`
	PostbackInitialInterval time.Duration `env:"PIXGATE_POSTBACK_INITIAL_INTERVAL" envDefault:"10s" desc:"first postback retry delay (doubles each time, with jitter)"`
	PostbackMaxInterval     time.Duration `env:"PIXGATE_POSTBACK_MAX_INTERVAL" envDefault:"6h" desc:"longest delay between two postback attempts"`

	ReconcileInterval   time.Duration `env:"PIXGATE_RECONCILE_INTERVAL" envDefault:"30s" desc:"how often the reconciler runs (once per interval across all workers)"`
	ReconcileStaleAfter time.Duration `env:"PIXGATE_RECONCILE_STALE_AFTER" envDefault:"2m" desc:"age at which PROCESSING transfers, unprocessed notifications and late postbacks are re-driven"`

	ProviderURL          string        `env:"PIXGATE_PROVIDER_URL" envDefault:"http://127.0.0.1:9090" desc:"settlement provider base URL (the dev sandbox by default)"`
	ProviderClientID     string        `env:"PIXGATE_PROVIDER_CLIENT_ID" envDefault:"sandbox" desc:"provider client id"`
	ProviderClientSecret string        `env:"PIXGATE_PROVIDER_CLIENT_SECRET" envDefault:"sandbox" desc:"provider client secret"`
	ProviderTimeout      time.Duration `env:"PIXGATE_PROVIDER_TIMEOUT" envDefault:"10s" desc:"timeout of one provider call"`
	ProviderWebhookToken string        `env:"PIXGATE_PROVIDER_WEBHOOK_TOKEN" desc:"secret path segment of /webhooks/provider/{token}; required by api and worker (pixgate dev generates one)"`

	WorkerConcurrency  int    `env:"PIXGATE_WORKER_CONCURRENCY" envDefault:"20" desc:"tasks one worker process runs at once"`
	MonitoringUser     string `env:"PIXGATE_MONITORING_USER" envDefault:"admin" desc:"user for the worker's /monitoring (asynqmon)"`
	MonitoringPassword string `env:"PIXGATE_MONITORING_PASSWORD" desc:"password for /monitoring; unset: /monitoring is off (pixgate dev generates one)"`

	SandboxAddr         string        `env:"PIXGATE_SANDBOX_ADDR" envDefault:"127.0.0.1:9090" desc:"sandbox provider listen address"`
	SandboxClientID     string        `env:"PIXGATE_SANDBOX_CLIENT_ID" envDefault:"sandbox" desc:"client id the sandbox accepts"`
	SandboxClientSecret string        `env:"PIXGATE_SANDBOX_CLIENT_SECRET" envDefault:"sandbox" desc:"client secret the sandbox accepts"`
	SandboxSettleDelay  time.Duration `env:"PIXGATE_SANDBOX_SETTLE_DELAY" envDefault:"1s" desc:"how long sandbox payments and refunds take to settle"`
}

// loadConfig reads the configuration from environ, a list of KEY=value pairs
// (os.Environ() in production, a fixed list in tests).
func loadConfig(environ map[string]string) (config, error) {
	var c config
	if err := env.ParseWithOptions(&c, env.Options{Environment: environ}); err != nil {
		return config{}, fmt.Errorf("configuration: %w", err)
	}
	if _, err := c.maxAmount(); err != nil {
		return config{}, err
	}
	return c, nil
}

// configVar describes one variable for `pixgate env` and the README.
type configVar struct {
	Name, Default, Description string
}

func configVars() []configVar {
	t := reflect.TypeOf(config{})
	vars := make([]configVar, 0, t.NumField())
	for i := range t.NumField() {
		f := t.Field(i)
		vars = append(vars, configVar{Name: f.Tag.Get("env"), Default: f.Tag.Get("envDefault"), Description: f.Tag.Get("desc")})
	}
	return vars
}

// configMarkdown renders the settings as a Markdown table.
func configMarkdown() string {
	var b strings.Builder
	b.WriteString("| Variable | Default | Meaning |\n|---|---|---|\n")
	for _, v := range configVars() {
		def := "`" + v.Default + "`"
		if v.Default == "" {
			def = "(none)"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", v.Name, def, v.Description)
	}
	return b.String()
}

func (c config) maxAmount() (money.Money, error) {
	m, err := money.ParseAmount([]byte(c.MaxAmount))
	if err != nil {
		return 0, fmt.Errorf("configuration: PIXGATE_MAX_AMOUNT %s", err)
	}
	return m, nil
}
