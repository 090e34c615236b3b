package main

import (
	"encoding"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/caarlos0/env/v11"

	"github.com/pixgate/pixgate/api"
	"github.com/pixgate/pixgate/providerclient/connectors"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// config is every setting of every process, read once from PIXGATE_*
// environment variables and passed down as each package's own Config.
// The defaults make `make run` work on a machine with Postgres and Redis on
// their standard local ports. The desc tags feed `pixgate env` and the
// README's table (a test keeps the README in step).
type config struct {
	DatabaseURL      string `env:"PIXGATE_DATABASE_URL" envDefault:"postgres://postgres@127.0.0.1:5432/pixgate?sslmode=disable" desc:"Postgres URL; migrate, dev, api, worker and sandbox create the database if missing, other commands refuse it"`
	DatabaseMaxConns int32  `env:"PIXGATE_DATABASE_MAX_CONNS" envDefault:"20" desc:"connections per process"`
	MigrateOnStart   bool   `env:"PIXGATE_MIGRATE_ON_START" envDefault:"true" desc:"api and worker apply pending migrations at start (false: they refuse to start until pixgate migrate ran, e.g. as a Kubernetes Job)"`
	RedisURL         string `env:"PIXGATE_REDIS_URL" envDefault:"redis://127.0.0.1:6379/0" desc:"Redis for queues, access tokens and rate limits: redis://, rediss://, redis-sentinel://[:pw@]s1:26379,s2:26379/0?master=NAME or redis-cluster://[:pw@]n1:6379,n2:6379"`

	// The acquire timeout bounds the wait for a free connection, never a
	// statement: a request that waited this long is answered 503 with
	// Retry-After.
	DatabaseAcquireTimeout time.Duration `env:"PIXGATE_DATABASE_ACQUIRE_TIMEOUT" envDefault:"5s" desc:"longest wait for a free database connection; a request that waits longer is answered 503 with Retry-After"`
	// The API's database sessions (storage.SessionTimeouts): a request
	// never holds its connection for long, whatever it waits on. Not the
	// worker's, whose long operations (a day's reconciliation) must finish.
	DatabaseLockTimeout      time.Duration `env:"PIXGATE_DATABASE_LOCK_TIMEOUT" envDefault:"2s" desc:"api (and pixgate dev): longest wait of a statement for a lock another transaction holds (Postgres lock_timeout); the request gives up, is answered 503 with Retry-After, and its connection is released; 0: no limit"`
	DatabaseStatementTimeout time.Duration `env:"PIXGATE_DATABASE_QUERY_TIMEOUT" envDefault:"10s" desc:"api (and pixgate dev): longest run of one statement (Postgres statement_timeout), answered as a lock timeout is; 0: no limit"`
	DatabaseIdleInTxTimeout  time.Duration `env:"PIXGATE_DATABASE_IDLE_TX_TIMEOUT" envDefault:"1m" desc:"api (and pixgate dev): Postgres ends a session idle inside a transaction this long, releasing its locks (idle_in_transaction_session_timeout); 0: no limit"`
	// A pool whose every connection stays held this long, none handed out,
	// is starved: /healthz fails so the liveness probe restarts the process
	// (docs/operations.md).
	DatabaseStarvedAfter time.Duration `env:"PIXGATE_DATABASE_STARVED_AFTER" envDefault:"15s" desc:"how long every database connection of a process may stay held, none handed out, before its /healthz fails as starved (looked at every 5 s, or every third of a shorter setting); keep it above the longest statement"`

	HTTPAddr       string `env:"PIXGATE_HTTP_ADDR" envDefault:"127.0.0.1:8080" desc:"API listen address"`
	WorkerAddr     string `env:"PIXGATE_WORKER_ADDR" envDefault:"127.0.0.1:8081" desc:"worker side server: /healthz, /metrics, /monitoring"`
	APIMetricsAddr string `env:"PIXGATE_API_METRICS_ADDR" envDefault:"127.0.0.1:8082" desc:"pixgate api's /metrics listener (kept off the public port)"`
	Pprof          bool   `env:"PIXGATE_PPROF" envDefault:"false" desc:"serve Go's profiles at /debug/pprof/ on the api's metrics listener and the worker's side server"`
	PublicBaseURL  string `env:"PIXGATE_PUBLIC_BASE_URL" envDefault:"http://127.0.0.1:8080" desc:"URL where the provider reaches PixGate's webhook"`
	LogLevel       string `env:"PIXGATE_LOG_LEVEL" envDefault:"info" desc:"debug, info, warn or error"`
	LogFormat      string `env:"PIXGATE_LOG_FORMAT" envDefault:"json" desc:"json or text (pixgate dev uses text unless set)"`

	MaxAmount             string        `env:"PIXGATE_MAX_AMOUNT" envDefault:"100000.00" desc:"largest amount of one charge or withdrawal, in reais"`
	GroupCommit           int           `env:"PIXGATE_GROUP_COMMIT" envDefault:"4" desc:"withdrawal creates pixgate api commits together, in up to this many transactions at once (0: each alone)"`
	SharedCommits         int           `env:"PIXGATE_SHARED_COMMITS" envDefault:"1" desc:"small statements of concurrent work (a send recorded, a notification stored or picked, a postback's attempt) pixgate api and worker commit together, in up to this many pipelines at once (0: each alone); fewer pipelines share more"`
	KeyCacheTTL           time.Duration `env:"PIXGATE_KEY_CACHE_TTL" envDefault:"10s" desc:"how long pixgate api keeps a used API key, and pixgate worker an integrator's postback signing secret, in memory (0: no cache); revoking or changing a key or a secret reaches every process at once, through Postgres notifications"`
	V1RatePerMinute       int           `env:"PIXGATE_V1_RATE_PER_MINUTE" envDefault:"600" desc:"requests per minute per v1 API key (negative: no limit)"`
	KeyLookupsPerMinute   int           `env:"PIXGATE_KEY_LOOKUPS_PER_MINUTE" envDefault:"30" desc:"key lookups per minute per integrator (GET /api/v1/pix-keys/{key} and the same-holder check of a withdrawal; a miss costs 20), on top of each key's limit (negative: no limit)"`
	AuthFailuresPerMinute int           `env:"PIXGATE_AUTH_FAILURES_PER_MINUTE" envDefault:"30" desc:"failed authentications per minute per client address (IPv6: per /64) before it gets 429 (negative: no limit)"`
	AdmissionBacklog      int64         `env:"PIXGATE_ADMISSION_BACKLOG" envDefault:"1000" desc:"tasks waiting in the sends and events queues at which pixgate api refuses new withdrawals and refunds with 503 overloaded and Retry-After (charges and provider notifications are never refused; 1000 is about two seconds of one worker's peak; negative: never refuse)"`
	AdmissionQueueTime    time.Duration `env:"PIXGATE_ADMISSION_QUEUE_TIME" envDefault:"2s" desc:"pixgate api also refuses them while 64 or more tasks wait there and the workers, at the rate they took tasks up lately, would take longer than this to take them up (negative: only PIXGATE_ADMISSION_BACKLOG)"`
	AdmissionRetryAfter   time.Duration `env:"PIXGATE_ADMISSION_RETRY_AFTER" envDefault:"1s" desc:"Retry-After of a withdrawal or refund refused for the backlog"`
	BodyLimit             int           `env:"PIXGATE_BODY_LIMIT" envDefault:"65536" desc:"largest request body, in bytes"`
	BatchBodyLimit        int           `env:"PIXGATE_BATCH_BODY_LIMIT" envDefault:"8388608" desc:"largest body of POST /api/v1/withdrawals/batches, in bytes (10,000 withdrawals as JSON take about 3 MiB)"`
	ProxyHeader           string        `env:"PIXGATE_PROXY_HEADER" desc:"header with the client address behind a proxy; use one the proxy overwrites, e.g. X-Real-IP"`
	TrustedProxies        []string      `env:"PIXGATE_TRUSTED_PROXIES" desc:"comma-separated proxy IPs/CIDRs whose PIXGATE_PROXY_HEADER is believed"`
	PostbackAllowHTTP     bool          `env:"PIXGATE_POSTBACK_ALLOW_HTTP" envDefault:"false" desc:"accept http:// postback URLs (development; pixgate dev sets it)"`

	TokenTTL             seconds `env:"PIXGATE_TOKEN_TTL" envDefault:"3600" desc:"lifetime of a v2 access token: seconds, or a duration such as 1h (whole seconds, at least 1)"`
	V2TokenRatePerMinute int     `env:"PIXGATE_V2_TOKEN_RATE_PER_MINUTE" envDefault:"20" desc:"POST /v2/oauth/token requests per minute per client IP (negative: no limit)"`
	V2RatePerMinute      int     `env:"PIXGATE_V2_RATE_PER_MINUTE" envDefault:"600" desc:"requests per minute per API key on the other /v2 routes (all its access tokens together), and per client IP without a token (negative: no limit)"`

	PostbackAllowPrivate    bool          `env:"PIXGATE_POSTBACK_ALLOW_PRIVATE" envDefault:"false" desc:"let postbacks reach loopback and private addresses (development; pixgate dev sets it)"`
	PostbackTimeout         time.Duration `env:"PIXGATE_POSTBACK_TIMEOUT" envDefault:"10s" desc:"timeout of one postback attempt"`
	PostbackMaxAge          time.Duration `env:"PIXGATE_POSTBACK_MAX_AGE" envDefault:"72h" desc:"how long a failing postback keeps being retried"`
	PostbackInitialInterval time.Duration `env:"PIXGATE_POSTBACK_INITIAL_INTERVAL" envDefault:"10s" desc:"first postback retry delay (doubles each time, with jitter)"`
	PostbackMaxInterval     time.Duration `env:"PIXGATE_POSTBACK_MAX_INTERVAL" envDefault:"6h" desc:"longest delay between two postback attempts"`
	PostbackPerIntegrator   int           `env:"PIXGATE_POSTBACK_PER_INTEGRATOR" envDefault:"16" desc:"postbacks of one integrator one worker process delivers at once, so a hanging endpoint never takes the whole lane"`
	PostbackDisableAfter    time.Duration `env:"PIXGATE_POSTBACK_DISABLE_AFTER" envDefault:"72h" desc:"how long every delivery to an endpoint may fail before PixGate disables it (its postbacks wait until a resume)"`

	ReconcileInterval    time.Duration `env:"PIXGATE_RECONCILE_INTERVAL" envDefault:"5s" desc:"how often the reconciler runs (once per interval across all workers); a due check of a pending charge waits at most this long"`
	ReconcileStaleAfter  time.Duration `env:"PIXGATE_RECONCILE_STALE_AFTER" envDefault:"2m" desc:"age at which PROCESSING transfers, unprocessed notifications, open infractions and late postbacks are re-driven"`
	InfractionPoll       time.Duration `env:"PIXGATE_INFRACTION_POLL" envDefault:"1m" desc:"how often each provider that lists MED infractions (efi; the family with extensions) is asked for new ones"`
	InfractionPollWindow time.Duration `env:"PIXGATE_INFRACTION_POLL_WINDOW" envDefault:"168h" desc:"how far back each poll of MED infractions looks"`
	ReconcileGrace       time.Duration `env:"PIXGATE_RECONCILE_GRACE" envDefault:"24h" desc:"how long after a day's end its items that time may still settle (payments heard of late, transactions near midnight) are expected rather than exceptions; the worker reconciles the day again when it ends (default: T+1)"`
	ReconcileBoundary    time.Duration `env:"PIXGATE_RECONCILE_BOUNDARY" envDefault:"15m" desc:"how close to midnight a transaction is near it, where PixGate and the provider may date it on different days"`
	RetainEvents         time.Duration `env:"PIXGATE_RETAIN_PROVIDER_EVENTS" envDefault:"720h" desc:"how long processed provider notifications are kept (negative: forever)"`
	RetainOutbox         time.Duration `env:"PIXGATE_RETAIN_OUTBOX" envDefault:"720h" desc:"how long outbox rows are kept once their task is queued (negative: forever)"`

	ProviderKind            string        `env:"PIXGATE_PROVIDER_KIND" envDefault:"family" desc:"the provider's contract: family (the BSPay / PixUp family's /v2), efi (the BCB API Pix as Efí serves it, over mutual TLS) or woovi (Woovi's API; PIXGATE_PROVIDER_CLIENT_ID is the AppID); see docs/provider.md"`
	ProviderURL             string        `env:"PIXGATE_PROVIDER_URL" envDefault:"http://127.0.0.1:9090" desc:"settlement provider base URL (the dev sandbox by default; efi: https://pix.api.efipay.com.br, or https://pix-h.api.efipay.com.br to try it)"`
	ProviderClientID        string        `env:"PIXGATE_PROVIDER_CLIENT_ID" envDefault:"sandbox" desc:"provider client id"`
	ProviderClientSecret    string        `env:"PIXGATE_PROVIDER_CLIENT_SECRET" envDefault:"sandbox" desc:"provider client secret"`
	ProviderTimeout         time.Duration `env:"PIXGATE_PROVIDER_TIMEOUT" envDefault:"10s" desc:"timeout of one provider call"`
	ProviderReadTimeout     time.Duration `env:"PIXGATE_PROVIDER_READ_TIMEOUT" envDefault:"3s" desc:"timeout of one read of a transaction at the provider, its retries included (notifications and the reconciler settle on reads; a slow provider must not hold them for PIXGATE_PROVIDER_TIMEOUT)"`
	ProviderCreateAttempt   time.Duration `env:"PIXGATE_PROVIDER_CREATE_DEADLINE" envDefault:"3s" desc:"how long a charge create waits at each provider of its route but the last before the next provider takes it (never more than half of the payer's time left; see docs/provider.md)"`
	ProviderHedgeAfter      time.Duration `env:"PIXGATE_PROVIDER_HEDGE_AFTER" envDefault:"200ms" desc:"the least a read of a transaction waits for the provider's answer before another attempt is sent beside it (the wait follows the provider's recent answers above it)"`
	ProviderHedgeAttempts   int           `env:"PIXGATE_PROVIDER_HEDGE_ATTEMPTS" envDefault:"3" desc:"the most attempts of one read of a transaction in flight at once, the first included (1: no hedged reads)"`
	ProviderCertFile        string        `env:"PIXGATE_PROVIDER_CERT_FILE" desc:"efi: the client certificate for mutual TLS, a PEM file (it may hold the key too; convert Efí's .p12 with openssl pkcs12 -in cert.p12 -out cert.pem -nodes)"`
	ProviderKeyFile         string        `env:"PIXGATE_PROVIDER_KEY_FILE" desc:"efi: the client certificate's private key, a PEM file (default: PIXGATE_PROVIDER_CERT_FILE)"`
	ProviderCertPEM         string        `env:"PIXGATE_PROVIDER_CERT_PEM" desc:"efi: the client certificate as PEM text, instead of a file"`
	ProviderKeyPEM          string        `env:"PIXGATE_PROVIDER_KEY_PEM" desc:"efi: the client certificate's private key as PEM text, instead of a file"`
	ProviderCAFile          string        `env:"PIXGATE_PROVIDER_CA_FILE" desc:"the CA that signs the provider's server certificate, a PEM file (default: the system's roots)"`
	ProviderCAPEM           string        `env:"PIXGATE_PROVIDER_CA_PEM" desc:"the provider's CA as PEM text, instead of a file"`
	ProviderMaxPerPix       string        `env:"PIXGATE_PROVIDER_PIX_LIMIT" desc:"the default provider's maximum per PIX, in reais (R$ 15000.00 for institutions that reach the system through an IT provider, Res. BCB 494-498/2025); none when unset. Stored providers take pixgate provider add --max-per-pix"`
	ProviderMaxPerPixNight  string        `env:"PIXGATE_PROVIDER_PIX_LIMIT_NIGHT" desc:"the default provider's maximum per PIX from 20:00 to 06:00 America/Sao_Paulo, in reais; none when unset"`
	ProviderPixKey          string        `env:"PIXGATE_PROVIDER_PIX_KEY" desc:"efi: the account's PIX key: charges are issued to it, PIX are sent from it and the webhook is registered on it"`
	ProviderAccount         string        `env:"PIXGATE_PROVIDER_ACCOUNT" desc:"efi: the account's branch and number at Efí, as branch/number (or branch/number/type, type CORRENTE by default, POUPANCA or PAGAMENTO): each Pix Automático cycle's charge names it (pixgate dev sets its sandbox's)"`
	ProviderWebhookSkipMTLS bool          `env:"PIXGATE_PROVIDER_WEBHOOK_NO_MTLS" envDefault:"false" desc:"efi: register the webhook asking Efí not to require mutual TLS of PixGate's webhook endpoint (x-skip-mtls-checking), for a proxy that cannot check Efí's certificate; PixGate reads every notified transaction back either way"`
	ProviderWebhookKey      string        `env:"PIXGATE_PROVIDER_WEBHOOK_KEY" desc:"woovi: the public key (PEM) Woovi signs its webhooks with; set, unsigned or badly signed webhooks are refused (pixgate dev sets the sandbox's)"`
	ProviderExtensions      bool          `env:"PIXGATE_PROVIDER_EXTENSIONS" envDefault:"false" desc:"family: the provider serves PixGate's extensions of the contract (MED infractions, the key directory, the day's statement), as PixGate's sandbox does; pixgate dev sets it for its sandbox (see docs/provider.md)"`
	ProviderWebhookToken    string        `env:"PIXGATE_PROVIDER_WEBHOOK_TOKEN" desc:"secret path segment of /webhooks/provider/{token}, at least 32 characters; required by api and worker (pixgate dev generates one and keeps it beside the demo key)"`

	WorkerEvents       int    `env:"PIXGATE_WORKER_EVENTS_SLOTS" envDefault:"64" desc:"provider notifications (they credit paid charges) one worker process handles at once, in a lane of their own that slow provider sends cannot fill (a notification waiting for the provider's read holds no database connection; a slow provider holds at most half of them)"`
	WorkerSends        int    `env:"PIXGATE_WORKER_SENDS_SLOTS" envDefault:"64" desc:"withdrawals, refunds and MED returns one worker process sends to the provider at once, in a lane of their own (a send waiting for the provider holds no database connection)"`
	WorkerPostbacks    int    `env:"PIXGATE_WORKER_POSTBACKS_SLOTS" envDefault:"64" desc:"postbacks one worker process delivers at once, in a lane of their own"`
	WorkerDefault      int    `env:"PIXGATE_WORKER_DEFAULT_SLOTS" envDefault:"2" desc:"reconciler ticks one worker process runs at once, in a lane of their own"`
	MonitoringUser     string `env:"PIXGATE_MONITORING_USER" envDefault:"admin" desc:"user for the worker's /monitoring (asynqmon)"`
	MonitoringPassword string `env:"PIXGATE_MONITORING_PASSWORD" desc:"password of the PIXGATE_MONITORING_USER account of /monitoring; with neither it nor a users file, /monitoring is off (pixgate dev generates one and keeps it beside the demo key)"`
	MonitoringUsers    string `env:"PIXGATE_MONITORING_USERS_FILE" desc:"file of NAME:HASH lines, one per operator who may use /monitoring (bcrypt hashes: pixgate monitoring-user NAME or htpasswd -nB NAME makes a line); read at start"`
	MonitoringFailures int    `env:"PIXGATE_MONITORING_AUTH_FAILURES" envDefault:"5" desc:"failed /monitoring sign-ins per minute per client address (IPv6: per /64) and per user name before 429 with Retry-After"`

	SandboxContract     string        `env:"PIXGATE_SANDBOX_CONTRACT" desc:"the contract pixgate sandbox speaks: family, efi or woovi (default family; pixgate dev: PIXGATE_PROVIDER_KIND)"`
	SandboxAddr         string        `env:"PIXGATE_SANDBOX_ADDR" envDefault:"127.0.0.1:9090" desc:"sandbox provider listen address (efi: its control endpoints only)"`
	SandboxTLSAddr      string        `env:"PIXGATE_SANDBOX_TLS_ADDR" envDefault:"127.0.0.1:9443" desc:"efi sandbox: where its API listens, over mutual TLS"`
	SandboxTLSDir       string        `env:"PIXGATE_SANDBOX_TLS_DIR" desc:"the sandbox's keys: the efi face's CA (ca.pem), server and client certificates (client.pem, client-key.pem), the woovi face's webhook signing key (woovi-webhook-key.pem, woovi-webhook-public.pem); made when missing (default: the user cache directory)"`
	SandboxWebhookURL   string        `env:"PIXGATE_SANDBOX_WEBHOOK_URL" desc:"woovi sandbox: where it sends its webhooks (default: PixGate's, from PIXGATE_PUBLIC_BASE_URL and PIXGATE_PROVIDER_WEBHOOK_TOKEN)"`
	SandboxClientID     string        `env:"PIXGATE_SANDBOX_CLIENT_ID" envDefault:"sandbox" desc:"client id the sandbox accepts"`
	SandboxClientSecret string        `env:"PIXGATE_SANDBOX_CLIENT_SECRET" envDefault:"sandbox" desc:"client secret the sandbox accepts"`
	SandboxSettleDelay  time.Duration `env:"PIXGATE_SANDBOX_SETTLE_DELAY" envDefault:"1s" desc:"how long sandbox payments and refunds take to settle"`
	SandboxPublicHost   string        `env:"PIXGATE_SANDBOX_PUBLIC_HOST" desc:"host[:port] the sandbox writes in its BR Codes, as payers reach it (default: its listen address)"`
	SandboxStore        string        `env:"PIXGATE_SANDBOX_STORE" envDefault:"postgres" desc:"where pixgate sandbox and pixgate dev keep the sandbox's charges, payments, refunds and balance: postgres (schema sandbox of PIXGATE_DATABASE_URL, kept across restarts) or memory (forgotten at every restart)"`
	DemoKeyFile         string        `env:"PIXGATE_DEMO_KEY_FILE" desc:"where pixgate dev keeps its demo API key for the next run and pixgate demo (default: the user cache directory, one file per database); while dev runs, its settings for the operator commands beside it are in dev-settings.json in the same directory"`
}

// loadConfig reads the configuration from environ, a list of KEY=value pairs
// (os.Environ() in production, a fixed list in tests). Every error names
// the environment variable to fix.
func loadConfig(environ map[string]string) (config, error) {
	var c config
	if err := env.ParseWithOptions(&c, env.Options{Environment: environ}); err != nil {
		return config{}, configError(environ, err)
	}
	var errs []error
	if err := checkDatabaseURL(c.DatabaseURL); err != nil {
		errs = append(errs, err)
	}
	if _, err := c.maxAmount(); err != nil {
		errs = append(errs, err)
	}
	if _, err := c.defaultPixLimit(); err != nil {
		errs = append(errs, err)
	}
	if !slices.Contains(logLevels, strings.ToLower(c.LogLevel)) {
		errs = append(errs, fmt.Errorf("PIXGATE_LOG_LEVEL: %q is not one of %s", c.LogLevel, strings.Join(logLevels, ", ")))
	}
	if !slices.Contains(logFormats, strings.ToLower(c.LogFormat)) {
		errs = append(errs, fmt.Errorf("PIXGATE_LOG_FORMAT: %q is not one of %s", c.LogFormat, strings.Join(logFormats, ", ")))
	}
	if !slices.Contains(sandboxStores, strings.ToLower(c.SandboxStore)) {
		errs = append(errs, fmt.Errorf("PIXGATE_SANDBOX_STORE: %q is not one of %s", c.SandboxStore, strings.Join(sandboxStores, ", ")))
	}
	if !slices.Contains(connectors.Kinds, strings.ToLower(c.ProviderKind)) {
		errs = append(errs, fmt.Errorf("PIXGATE_PROVIDER_KIND: %q is not one of %s", c.ProviderKind, strings.Join(connectors.Kinds, ", ")))
	}
	if s := strings.ToLower(c.SandboxContract); s != "" && !slices.Contains(connectors.Kinds, s) {
		errs = append(errs, fmt.Errorf("PIXGATE_SANDBOX_CONTRACT: %q is not one of %s", c.SandboxContract, strings.Join(connectors.Kinds, ", ")))
	}
	if d := time.Duration(c.TokenTTL); d < time.Second || d%time.Second != 0 {
		errs = append(errs, fmt.Errorf("PIXGATE_TOKEN_TTL: must be a whole number of seconds, at least 1 (e.g. 3600 or 1h), not %s", d))
	}
	if err := checkProxies(c.ProxyHeader, c.TrustedProxies); err != nil {
		errs = append(errs, err)
	}
	if c.MonitoringFailures < 1 {
		errs = append(errs, fmt.Errorf("PIXGATE_MONITORING_AUTH_FAILURES: must be at least 1, not %d", c.MonitoringFailures))
	}
	if c.ProviderCreateAttempt <= 0 {
		errs = append(errs, fmt.Errorf("PIXGATE_PROVIDER_CREATE_DEADLINE: must be above zero (e.g. 3s), not %s", c.ProviderCreateAttempt))
	}
	if c.ProviderHedgeAfter <= 0 {
		errs = append(errs, fmt.Errorf("PIXGATE_PROVIDER_HEDGE_AFTER: must be above zero (e.g. 200ms), not %s", c.ProviderHedgeAfter))
	}
	if c.ProviderHedgeAttempts < 1 {
		errs = append(errs, fmt.Errorf("PIXGATE_PROVIDER_HEDGE_ATTEMPTS: must be at least 1 (1: no hedged reads), not %d", c.ProviderHedgeAttempts))
	}
	if c.DatabaseAcquireTimeout <= 0 {
		errs = append(errs, fmt.Errorf("PIXGATE_DATABASE_ACQUIRE_TIMEOUT: must be above zero (e.g. 5s), not %s", c.DatabaseAcquireTimeout))
	}
	for _, s := range []struct {
		name string
		d    time.Duration
	}{{"PIXGATE_DATABASE_LOCK_TIMEOUT", c.DatabaseLockTimeout}, {"PIXGATE_DATABASE_QUERY_TIMEOUT", c.DatabaseStatementTimeout},
		{"PIXGATE_DATABASE_IDLE_TX_TIMEOUT", c.DatabaseIdleInTxTimeout}} {
		if s.d < 0 || s.d > 0 && s.d < time.Millisecond {
			errs = append(errs, fmt.Errorf("%s: must be 0 (no limit) or at least 1ms (e.g. 2s), not %s", s.name, s.d))
		}
	}
	if c.DatabaseStarvedAfter <= 0 {
		errs = append(errs, fmt.Errorf("PIXGATE_DATABASE_STARVED_AFTER: must be above zero (e.g. 15s), not %s", c.DatabaseStarvedAfter))
	}
	if err := errors.Join(errs...); err != nil {
		return config{}, fmt.Errorf("configuration: %w", err)
	}
	return c, nil
}

// checkProxies refuses a proxy header without trusted proxies: believed
// from every client, it would let any of them pass an IP allowlist and
// escape the per-address limits by naming an address.
func checkProxies(header string, trusted []string) error {
	prefixes, err := api.ParseTrustedProxies(trusted)
	switch {
	case err != nil:
		return fmt.Errorf("PIXGATE_TRUSTED_PROXIES: %w", err)
	case header != "" && len(prefixes) == 0:
		return errors.New("PIXGATE_PROXY_HEADER is set but PIXGATE_TRUSTED_PROXIES is empty: the header would be believed from every client; " +
			"set PIXGATE_TRUSTED_PROXIES to the proxies' addresses, or unset PIXGATE_PROXY_HEADER")
	}
	return nil
}

// seconds is a duration read as a number of seconds ("3600", as expires_in
// counts them) or as a Go duration ("1h").
type seconds time.Duration

func (s *seconds) UnmarshalText(b []byte) error {
	if n, err := strconv.ParseInt(string(b), 10, 64); err == nil {
		*s = seconds(time.Duration(n) * time.Second)
		return nil
	}
	d, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("%q is neither a number of seconds nor a duration such as 1h", b)
	}
	*s = seconds(d)
	return nil
}

var (
	logLevels  = []string{"debug", "info", "warn", "error"}
	logFormats = []string{"json", "text"}
	// sandboxStores: postgres keeps the sandbox's state across restarts,
	// memory forgets it.
	sandboxStores = []string{"postgres", "memory"}
)

// configError rewrites the env library's errors, which name Go fields
// ("PostbackTimeout"), to name the variable and say what is expected.
func configError(environ map[string]string, err error) error {
	var agg env.AggregateError
	if !errors.As(err, &agg) {
		return fmt.Errorf("configuration: %w", err)
	}
	vars := map[string]reflect.StructField{}
	t := reflect.TypeOf(config{})
	for i := range t.NumField() {
		vars[t.Field(i).Name] = t.Field(i)
	}
	msgs := make([]string, 0, len(agg.Errors))
	for _, e := range agg.Errors {
		var pe env.ParseError
		f, ok := reflect.StructField{}, false
		if errors.As(e, &pe) {
			f, ok = vars[pe.Name]
		}
		if !ok {
			msgs = append(msgs, e.Error())
			continue
		}
		name := f.Tag.Get("env")
		if reflect.PointerTo(f.Type).Implements(textUnmarshaler) {
			msgs = append(msgs, fmt.Sprintf("%s: %v", name, pe.Err)) // its own words
			continue
		}
		msgs = append(msgs, fmt.Sprintf("%s: %q is not %s", name, environ[name], expected(f.Type)))
	}
	return fmt.Errorf("configuration: %s", strings.Join(msgs, "; "))
}

var textUnmarshaler = reflect.TypeOf((*encoding.TextUnmarshaler)(nil)).Elem()

// expected says, for an error message, what a setting of type t looks like.
func expected(t reflect.Type) string {
	switch {
	case t == reflect.TypeOf(time.Duration(0)):
		return "a duration (e.g. 10s, 2m, 72h)"
	case t.Kind() == reflect.Bool:
		return "true or false"
	case t.Kind() >= reflect.Int && t.Kind() <= reflect.Int64:
		return "a whole number"
	}
	return "a valid " + t.String()
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

// defaultPixLimit is the default provider's per-PIX limit
// (PIXGATE_PROVIDER_PIX_LIMIT and _NIGHT; zero: none).
func (c config) defaultPixLimit() (storage.PixLimit, error) {
	var l storage.PixLimit
	for _, v := range []struct {
		name, text string
		to         *money.Money
	}{{"PIXGATE_PROVIDER_PIX_LIMIT", c.ProviderMaxPerPix, &l.Max}, {"PIXGATE_PROVIDER_PIX_LIMIT_NIGHT", c.ProviderMaxPerPixNight, &l.Night}} {
		if v.text == "" {
			continue
		}
		m, err := money.ParseAmount([]byte(v.text))
		if err != nil || m <= 0 {
			return storage.PixLimit{}, fmt.Errorf("%s: %q is not an amount in reais above zero (e.g. 15000.00)", v.name, v.text)
		}
		*v.to = m
	}
	return l, nil
}

func (c config) maxAmount() (money.Money, error) {
	m, err := money.ParseAmount([]byte(c.MaxAmount))
	if err != nil {
		return 0, fmt.Errorf("PIXGATE_MAX_AMOUNT: %s", err)
	}
	return m, nil
}
