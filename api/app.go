// Package api is PixGate's HTTP surface: the v1 resource API under /api/v1,
// the provider family's contract under /v2 (access tokens, balance, QR
// charges, payments, refunds, consult-transaction), the provider's
// webhook, health, and the API's own description (/openapi.yaml, rendered
// at /docs).
//
// Handlers are thin: they authenticate, parse the request (the
// parse…Request functions), call api/payments, which does every operation
// for both surfaces and for the provider's notifications, and render the
// answer in their surface's shape. Every answer carries X-Request-Id, and
// every error, whatever produced it (a handler, a middleware, Fiber's
// router or fasthttp's body cap), is rendered by one function in one JSON
// shape (see errors.go).
package api

import (
	"context"
	"log/slog"
	"time"

	"github.com/go-redis/redis_rate/v10"
	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/recover"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	"github.com/pixgate/pixgate/api/accesstoken"
	"github.com/pixgate/pixgate/api/payments"
	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// Config holds the API's settings. Zero values take the defaults below.
type Config struct {
	// BodyLimit caps request bodies in bytes; larger bodies get 413.
	// Default 64 KiB.
	BodyLimit int
	// BatchBodyLimit caps the body of POST /api/v1/withdrawals/batches
	// (10,000 withdrawals do not fit in BodyLimit). Default 8 MiB.
	BatchBodyLimit int
	// ProviderWebhookURL is PixGate's own webhook URL
	// (…/webhooks/provider/{token}), sent to the provider as postbackUrl on
	// every charge. The integrator's postbackUrl is never sent to the
	// provider: PixGate confirms events itself and then notifies integrators.
	ProviderWebhookURL string
	// MaxAmount caps the amount of one charge or withdrawal; above it the
	// request is refused with 422. Default R$ 100,000.00.
	MaxAmount money.Money
	// V1RatePerMinute is the rate limit of each v1 API key (GCRA in Redis,
	// shared across API replicas, bursts up to the same number). Zero means
	// the default, 600; negative disables v1 rate limiting.
	V1RatePerMinute int
	// TokenTTL is the lifetime of a v2 access token, in whole seconds.
	// Default 3600s.
	TokenTTL time.Duration
	// V2TokenRatePerMinute limits POST /v2/oauth/token per client address
	// (as V1RatePerMinute: zero means the default, 20; negative disables).
	V2TokenRatePerMinute int
	// V2RatePerMinute limits every other /v2 route per API key (all the
	// access tokens of a key together), and per client address for
	// requests without a live token. Zero means the default, 600;
	// negative disables.
	V2RatePerMinute int
	// KeyLookupsPerMinute limits key lookups per account (all its keys
	// together), on top of each key's own limit: GET /api/v1/pix-keys/{key}
	// and the same-holder check of withdrawals, on either surface, a miss
	// counting payments.LookupMissCost (see lookupBudget). The DICT limits
	// reads per payer, and every lookup spends the provider's DICT budget.
	// Zero means the default, 30; negative disables.
	KeyLookupsPerMinute int
	// AuthFailuresPerMinute is how many failed authentications one client
	// address (an IPv6 /64) may make per minute, in bursts of as many; past
	// it the address gets 429 before its credentials are looked at. Zero
	// means the default, 30; negative disables the limit.
	AuthFailuresPerMinute int
	// AllowHTTPPostbacks lets integrators register http:// postback URLs
	// (development only); otherwise postback URLs must be https.
	AllowHTTPPostbacks bool
	// ProviderWebhookToken is the secret path segment of the provider's
	// notification address; empty turns the webhook off (every token 404).
	ProviderWebhookToken string
	// PostbackURLPolicy, when set, refuses postback URLs that delivery would
	// refuse, so integrators learn at creation. It must be the delivering
	// workers' own rule with their own settings (postback.CheckURL with the
	// worker's postback.Config): the policy belongs to the worker process,
	// and API and workers that disagree on it must not share a database.
	PostbackURLPolicy func(ctx context.Context, rawURL string) error
	// ProviderTimeout bounds the provider call made inside POST
	// /api/v1/charges, retries included: the payer is waiting at a checkout.
	// Default 15s.
	ProviderTimeout time.Duration
	// ProviderRetryAfter is the Retry-After sent with 503
	// provider_unavailable. Keep it near the provider client's breaker open
	// interval (1s by default). Default 2s.
	ProviderRetryAfter time.Duration
	// ProxyHeader names the header carrying the client address when the API
	// runs behind a reverse proxy or load balancer (e.g. "X-Real-IP").
	// Empty means the TCP peer is the client. The client address decides the
	// per-key IP allowlists, so it is believed only from TrustedProxies:
	// without any, it is ignored (see proxies).
	ProxyHeader string
	// TrustedProxies lists the proxies (IPs or CIDRs, see
	// ParseTrustedProxies) whose ProxyHeader is believed; requests from
	// anywhere else are judged by their TCP peer.
	TrustedProxies []string
	// AdmissionBacklog bounds the tasks waiting in the sends and events
	// queues: at or above it, new withdrawals and refunds are refused with
	// 503 overloaded (admission.go). Zero means DefaultAdmissionBacklog;
	// negative admits everything.
	AdmissionBacklog int64
	// AdmissionQueueTime: they are refused too while the tasks waiting
	// (64 or more) would take the workers longer than this to take up, at
	// the rate they took them lately. Zero means
	// DefaultAdmissionQueueTime; negative leaves AdmissionBacklog alone.
	AdmissionQueueTime time.Duration
	// AdmissionRetryAfter is the Retry-After of those refusals. Default
	// DefaultAdmissionRetryAfter.
	AdmissionRetryAfter time.Duration
}

// Defaults applied to zero Config fields.
const (
	DefaultBodyLimit            = 64 << 10
	DefaultMaxAmount            = money.Money(100_000_00) // R$ 100,000.00
	DefaultV1RatePerMinute      = 600
	DefaultTokenTTL             = time.Hour
	DefaultV2TokenRatePerMinute = 20
	DefaultV2RatePerMinute      = 600
	DefaultAuthFailuresPerMin   = 30
	DefaultKeyLookupsPerMinute  = 30
	DefaultProviderTimeout      = 15 * time.Second
	DefaultProviderRetryAfter   = 2 * time.Second
)

func (c Config) withDefaults() Config {
	if c.BodyLimit <= 0 {
		c.BodyLimit = DefaultBodyLimit
	}
	if c.BatchBodyLimit <= 0 {
		c.BatchBodyLimit = DefaultBatchBodyLimit
	}
	if c.MaxAmount <= 0 {
		c.MaxAmount = DefaultMaxAmount
	}
	if c.V1RatePerMinute == 0 {
		c.V1RatePerMinute = DefaultV1RatePerMinute
	}
	if c.TokenTTL <= 0 {
		c.TokenTTL = DefaultTokenTTL
	}
	if c.V2TokenRatePerMinute == 0 {
		c.V2TokenRatePerMinute = DefaultV2TokenRatePerMinute
	}
	if c.V2RatePerMinute == 0 {
		c.V2RatePerMinute = DefaultV2RatePerMinute
	}
	if c.KeyLookupsPerMinute == 0 {
		c.KeyLookupsPerMinute = DefaultKeyLookupsPerMinute
	}
	if c.AuthFailuresPerMinute == 0 {
		c.AuthFailuresPerMinute = DefaultAuthFailuresPerMin
	}
	if c.ProviderTimeout <= 0 {
		c.ProviderTimeout = DefaultProviderTimeout
	}
	if c.ProviderRetryAfter <= 0 {
		c.ProviderRetryAfter = DefaultProviderRetryAfter
	}
	if c.AdmissionBacklog == 0 {
		c.AdmissionBacklog = DefaultAdmissionBacklog
	}
	if c.AdmissionQueueTime == 0 {
		c.AdmissionQueueTime = DefaultAdmissionQueueTime
	}
	if c.AdmissionRetryAfter <= 0 {
		c.AdmissionRetryAfter = DefaultAdmissionRetryAfter
	}
	return c
}

// Deps are the API's collaborators.
type Deps struct {
	// DB is the database (store.go); cmd/pixgate passes its *storage.DB.
	DB Store
	// Redis holds the rate-limit counters and the v2 access tokens. Nil
	// disables rate limiting and makes /v2 answer 503 (New logs a warning).
	Redis redis.UniversalClient
	// Provider is the settlement provider's connector, shared with nothing
	// else in the process so its circuit breaker reflects this process's
	// calls; it also reads the provider's notifications. Nil makes POST
	// /api/v1/charges and the provider webhook answer 503 without writing
	// anything.
	Provider providerclient.Connector
	Logger   *slog.Logger
	// Metrics registers the HTTP metrics; nil records none.
	Metrics prometheus.Registerer
	// Ready lists the dependencies /readyz checks besides Postgres.
	Ready []ReadyCheck
	// Live, when set, is what /healthz asks besides answering at all: an
	// error (the database pool starved, storage.DB.PoolStarved) fails it,
	// so that the orchestrator restarts the process. It must answer at
	// once, from memory.
	Live func() error
	// Clock is the API's time: when v2 access tokens expire and how old a
	// charge may be to be refunded. Nil means time.Now.
	Clock func() time.Time
	// Backlog reads the tasks waiting for a worker, for the admission of
	// cash-out work; nil reads the queues in Redis (none without Redis).
	Backlog BacklogFunc
}

// Server is the Fiber application with its collaborators.
type Server struct {
	cfg     Config
	deps    Deps
	log     *slog.Logger
	limiter *redis_rate.Limiter // nil: rate limiting off
	tokens  *accesstoken.Store  // nil: no v2 access tokens
	metrics *httpMetrics        // nil: none recorded
	// payments runs the operations both surfaces offer.
	payments *payments.Service
	app      *fiber.App
	// authLimiter counts failed authentications per address; nil: off.
	authLimiter *redis_rate.Limiter
	// proxies says where a request came from (see clientaddr.go).
	proxies proxies
	// admission refuses cash-out work over the backlog bound; nil: off.
	admission *admission
}

// now is the API's time (Deps.Clock, else the system's).
func (s *Server) now() time.Time {
	if s.deps.Clock != nil {
		return s.deps.Clock()
	}
	return time.Now()
}

// New builds the Fiber application.
func New(cfg Config, deps Deps) *Server {
	cfg = cfg.withDefaults()
	if deps.Logger == nil {
		deps.Logger = slog.New(slog.DiscardHandler)
	}
	s := &Server{cfg: cfg, deps: deps, log: deps.Logger, metrics: newHTTPMetrics(deps.Metrics)}
	s.payments = payments.New(payments.Config{ProviderWebhookURL: cfg.ProviderWebhookURL, ProviderTimeout: cfg.ProviderTimeout, Now: deps.Clock,
		LookupBudget: lookupBudget{s}}, deps.DB, deps.Provider, deps.Logger)
	if deps.Redis == nil {
		s.log.Warn("api: no Redis client; rate limiting is off and /v2 answers 503")
	} else {
		s.limiter = redis_rate.NewLimiter(deps.Redis)
		s.tokens = accesstoken.New(deps.Redis, cfg.TokenTTL, deps.Clock)
	}
	if deps.Backlog == nil && deps.Redis != nil {
		deps.Backlog = queuedTasks(deps.Redis)
		s.deps.Backlog = deps.Backlog
	}
	s.admission = newAdmission(cfg.AdmissionBacklog, cfg.AdmissionQueueTime, cfg.AdmissionRetryAfter, deps.Backlog, nil)
	if cfg.AuthFailuresPerMinute > 0 {
		s.authLimiter = s.limiter
	}
	var err error
	if s.proxies, err = newProxies(cfg.ProxyHeader, cfg.TrustedProxies); err != nil {
		s.log.Error("api: client addresses are the TCP peers", "error", err)
	}
	s.app = fiber.New(fiber.Config{
		AppName:               "pixgate",
		BodyLimit:             cfg.BodyLimit,
		DisableStartupMessage: true,
		ReadTimeout:           15 * time.Second,
		WriteTimeout:          30 * time.Second,
		IdleTimeout:           90 * time.Second,
		ErrorHandler:          s.renderError,
	})
	// Order matters: the request id exists before anything can fail, the
	// access log sees the final status of every request (panics included,
	// which recover turns into errors below it) inside the request's span,
	// so that its line carries the trace id.
	s.app.Use(requestID, traceRequest, s.accessLog, recover.New())
	s.routes()
	s.guardTransport()
	return s
}

// App exposes the Fiber application (for Listen and app.Test in tests).
func (s *Server) App() *fiber.App { return s.app }

// routes wires every endpoint. v1 routes authenticate one by one (not as a
// group) so that an unknown path is 404 whether or not it carries a key.
func (s *Server) routes() {
	s.app.Get("/healthz", s.healthz)
	s.app.Get("/readyz", s.readyz)
	s.docsRoutes()

	s.app.Post("/webhooks/provider/:token", s.providerWebhook)
	// The BCB API Pix posts its webhooks to {webhookUrl}/pix.
	s.app.Post("/webhooks/provider/:token/pix", s.providerWebhook)
	// ... and its Pix Automático webhooks (webhookrec) to {webhookUrl}/rec.
	s.app.Post("/webhooks/provider/:token/rec", s.providerWebhook)
	// ... and its recurring charges' (webhookcobr) to {webhookUrl}/cobr.
	s.app.Post("/webhooks/provider/:token/cobr", s.providerWebhook)
	// Every other provider's, by its name and its own token.
	s.app.Post("/webhooks/provider/:name/:token", s.providerWebhook)
	s.app.Post("/webhooks/provider/:name/:token/pix", s.providerWebhook)
	s.app.Post("/webhooks/provider/:name/:token/rec", s.providerWebhook)
	s.app.Post("/webhooks/provider/:name/:token/cobr", s.providerWebhook)

	v1 := s.app.Group("/api/v1")
	v1.Get("/balance", s.v1Auth(storage.ScopeBalanceRead), s.getBalance)
	v1.Post("/charges", s.v1Auth(storage.ScopeChargesWrite), requireJSON, s.createCharge)
	v1.Post("/charges/batch", s.v1Auth(storage.ScopeChargesWrite), requireJSON, s.createChargeBatch)
	v1.Get("/charges", s.v1Auth(storage.ScopeChargesRead), s.listCharges)
	v1.Get("/charges/:charge", s.v1Auth(storage.ScopeChargesRead), s.getCharge)
	// A charge's refunds are read with charges:read: they are part of its
	// story, as its refunded_amount is.
	v1.Post("/charges/:charge/refunds", s.admitCashOut, s.v1Auth(storage.ScopeRefundsWrite), requireJSON, s.createChargeRefund)
	v1.Get("/charges/:charge/refunds", s.v1Auth(storage.ScopeChargesRead), s.listChargeRefunds)
	v1.Post("/withdrawals", s.admitCashOut, s.v1Auth(storage.ScopeWithdrawalsWrite), requireJSON, s.createWithdrawal)
	v1.Get("/withdrawals", s.v1Auth(storage.ScopeWithdrawalsRead), s.listWithdrawals)
	v1.Get("/withdrawals/:withdrawal", s.v1Auth(storage.ScopeWithdrawalsRead), s.getWithdrawal)
	v1.Post("/withdrawals/:withdrawal/approve", s.admitCashOut, s.v1Auth(storage.ScopeWithdrawalsApprove), s.approveWithdrawal)
	v1.Post("/withdrawals/:withdrawal/reject", s.v1Auth(storage.ScopeWithdrawalsApprove), s.rejectWithdrawal)
	v1.Post("/withdrawals/batches", s.admitCashOut, s.v1Auth(storage.ScopeWithdrawalsWrite), requireJSON, s.createWithdrawalBatch)
	v1.Post("/withdrawals/batches/csv", s.admitCashOut, s.v1Auth(storage.ScopeWithdrawalsWrite), s.createWithdrawalBatchCSV)
	v1.Get("/withdrawals/batches/:batch", s.v1Auth(storage.ScopeWithdrawalsRead), s.getWithdrawalBatch)
	v1.Get("/withdrawals/batches/:batch/items", s.v1Auth(storage.ScopeWithdrawalsRead), s.listWithdrawalBatchItems)
	v1.Post("/withdrawals/batches/:batch/approve", s.admitCashOut, s.v1Auth(storage.ScopeWithdrawalsApprove), s.approveWithdrawalBatch)
	v1.Post("/withdrawals/batches/:batch/reject", s.v1Auth(storage.ScopeWithdrawalsApprove), s.rejectWithdrawalBatch)
	v1.Post("/recurrences", s.v1Auth(storage.ScopeRecurrencesWrite), requireJSON, s.createRecurrence)
	v1.Get("/recurrences", s.v1Auth(storage.ScopeRecurrencesRead), s.listRecurrences)
	v1.Get("/recurrences/:recurrence", s.v1Auth(storage.ScopeRecurrencesRead), s.getRecurrence)
	v1.Post("/recurrences/:recurrence/cancel", s.v1Auth(storage.ScopeRecurrencesWrite), s.cancelRecurrence)
	v1.Get("/recurrences/:recurrence/cycles", s.v1Auth(storage.ScopeRecurrencesRead), s.listCycles)
	v1.Get("/recurrences/:recurrence/cycles/:n", s.v1Auth(storage.ScopeRecurrencesRead), s.getCycle)
	v1.Put("/recurrences/:recurrence/cycles/:n", s.v1Auth(storage.ScopeRecurrencesWrite), requireJSON, s.setCycleAmount)
	v1.Post("/recurrences/:recurrence/cycles/:n/cancel", s.v1Auth(storage.ScopeRecurrencesWrite), s.cancelCycle)
	v1.Get("/infractions", s.v1Auth(storage.ScopeInfractionsRead), s.listInfractions)
	v1.Get("/infractions/:id", s.v1Auth(storage.ScopeInfractionsRead), s.getInfraction)
	v1.Post("/infractions/:id/defense", s.v1Auth(storage.ScopeInfractionsWrite), requireJSON, s.defendInfraction)
	v1.Get("/pix-keys/:key", s.v1Auth(storage.ScopePixKeysRead), s.lookupKey)
	v1.Post("/sub-accounts", s.v1Auth(storage.ScopeSubAccountsWrite), requireJSON, s.createSubAccount)
	v1.Get("/sub-accounts", s.v1Auth(storage.ScopeSubAccountsRead), s.listSubAccounts)
	v1.Get("/sub-accounts/:id", s.v1Auth(storage.ScopeSubAccountsRead), s.getSubAccount)
	v1.Get("/webhook-events", s.v1Auth(storage.ScopeWebhooksRead), s.listWebhookEvents)
	v1.Get("/webhook-endpoints", s.v1Auth(storage.ScopeWebhooksRead), s.listWebhookEndpoints)
	v1.Post("/webhook-endpoints/pause", s.v1Auth(storage.ScopeWebhooksWrite), requireJSON, s.pauseWebhookEndpoint)
	v1.Post("/webhook-endpoints/resume", s.v1Auth(storage.ScopeWebhooksWrite), requireJSON, s.resumeWebhookEndpoint)
	v1.Get("/postbacks", s.v1Auth(storage.ScopeWebhooksRead), s.listPostbacks)
	// The literal route before the one it would match as an id.
	v1.Post("/postbacks/replay", s.v1Auth(storage.ScopeWebhooksWrite), requireJSON, s.replayPostbacks)
	v1.Get("/postbacks/:id", s.v1Auth(storage.ScopeWebhooksRead), s.getPostback)
	v1.Post("/postbacks/:id/replay", s.v1Auth(storage.ScopeWebhooksWrite), s.replayPostback)

	s.v2Routes()
}
