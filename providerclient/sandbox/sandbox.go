// Package sandbox is PixGate's sandbox settlement provider: an HTTP server
// of the provider's v2 contract (OAuth token, QR code charges, PIX
// payments, refunds, transaction lookup, balance) that issues valid dynamic
// BR Codes, settles payments after a delay, notifies postback URLs in the
// provider family's shapes, and injects faults on demand.
//
// Integrators and operators use it to try PixGate end to end; PixGate's tests
// run against it over real HTTP. Control endpoints under /sandbox/ (pay a
// charge, settle or fail a transfer, set faults, read counters) have Go
// method twins on *Sandbox for tests in other packages.
//
// A Sandbox keeps no global state: run as many as needed, each with its own
// Handler, and Close each one to stop its timers and notification senders.
// New keeps everything in memory; Open keeps the charges, payments, refunds
// and balance in a Store (package pgstore: Postgres) that outlives the
// process.
package sandbox

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"log/slog"
	mrand "math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/pixgate/pixgate/storage/money"
)

// Config configures a Sandbox. Every zero value has a working default.
type Config struct {
	// Contract is the face the sandbox shows: ContractFamily (default),
	// ContractEfi or ContractWoovi.
	Contract string
	// PixKey is the account's PIX key, which efi charges are issued to and
	// sends are made from. Default DefaultPixKey.
	PixKey string
	// ClientID and ClientSecret are the only credentials /v2/oauth/token
	// accepts. Default "sandbox" / "sandbox".
	ClientID, ClientSecret string
	// TokenTTL is the lifetime of an access token (expires_in). Default 1h.
	TokenTTL time.Duration
	// SettleDelay is how long a payment or refund stays PROCESSING before it
	// settles on its own. Default 1s. The settle_delay_ms fault overrides it.
	SettleDelay time.Duration
	// ChargeExpiration is how long a charge can be paid (calendar.expiration).
	// Default 1h.
	ChargeExpiration time.Duration
	// PublicHost is the host[:port] written in BR Code locations
	// ("<PublicHost>/qr/v2/<txid>"), at most 38 characters; a scheme or a
	// trailing slash is dropped. Default "sandbox.pixgate.local".
	PublicHost string
	// MerchantName (≤25 characters) and MerchantCity (≤15) go into every
	// BR Code. Default "PIXGATE SANDBOX", "SAO PAULO".
	MerchantName, MerchantCity string
	// InitialBalance is the money the sandbox account starts with.
	// Default R$ 1,000,000.00.
	InitialBalance money.Money
	// HTTPClient sends notifications. Default: 5s timeout, redirects not
	// followed.
	HTTPClient *http.Client
	// Logger receives notification failures and similar events. Default:
	// discard. Secrets, tokens and postback URL paths are never logged.
	Logger *slog.Logger
	// WebhookURL is where the woovi face sends its webhooks (Woovi
	// registers them per account, not per call).
	WebhookURL string
	// SigningKey signs the woovi face's webhooks (x-webhook-signature);
	// nil: New makes one (see WebhookPublicKeyPEM).
	SigningKey *rsa.PrivateKey
	// NotifyMaxInterval is the longest wait between two tries of a
	// notification the receiver did not accept (the waits double from
	// 200 ms up to it, jittered). Default 5s: a receiver that comes back
	// gets what it missed within seconds.
	NotifyMaxInterval time.Duration
	// NotifyMaxElapsed is how long a notification keeps being tried.
	// Default 1h.
	NotifyMaxElapsed time.Duration
	// FaultSeed, when not zero, seeds the draws of the error and timeout
	// faults, so the same sequence of requests meets the same faults on
	// every run (for tests that count outcomes). Zero draws at random.
	FaultSeed uint64
}

// Defaults applied by New.
const (
	DefaultClientID          = "sandbox"
	DefaultClientSecret      = "sandbox"
	DefaultTokenTTL          = time.Hour
	DefaultSettleDelay       = time.Second
	DefaultChargeExpiration  = time.Hour
	DefaultPublicHost        = "sandbox.pixgate.local"
	DefaultMerchantName      = "PIXGATE SANDBOX"
	DefaultMerchantCity      = "SAO PAULO"
	DefaultInitialBalance    = money.Money(100_000_000) // R$ 1,000,000.00
	DefaultPixKey            = "sandbox@pixgate.local"
	DefaultNotifyMaxInterval = 5 * time.Second
	DefaultNotifyMaxElapsed  = time.Hour
	maxPublicHost            = 38 // 77 − len("/qr/v2/") − 32
)

// Sandbox is one sandbox provider. Create it with New; it is safe for
// concurrent use.
type Sandbox struct {
	cfg     Config
	face    face
	log     *slog.Logger
	handler http.Handler
	stats   counters

	// ctx ends with Close: it stops notification senders and releases
	// requests held by the timeout fault.
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu         sync.Mutex
	closed     bool
	tokens     map[string]time.Time // access token → expiry
	records    map[string]*record   // transactionId → record
	order      []*record            // records in creation order
	byExternal map[string]string    // kind + external_id → transactionId
	timers     map[string]*time.Timer
	available  money.Money
	pending    money.Money
	faults     Faults
	draws      *mrand.Rand           // seeded fault draws; nil draws at random
	store      Store                 // nil: in memory only (see Open)
	webhooks   map[string]string     // PIX key → webhook URL (efi)
	altered    map[string]alteration // how statements show a transaction (discrepancy.go)
	dayOffset  int                   // days the clock is ahead of Brasília's today (clock.go)
}

// New builds a Sandbox from cfg, filling defaults, that keeps its state in
// memory: a new one knows no transaction. Open builds one on a Store.
func New(cfg Config) *Sandbox {
	cfg = withDefaults(cfg)
	ctx, cancel := context.WithCancel(context.Background())
	s := &Sandbox{
		cfg:        cfg,
		log:        cfg.Logger,
		ctx:        ctx,
		cancel:     cancel,
		tokens:     make(map[string]time.Time),
		records:    make(map[string]*record),
		byExternal: make(map[string]string),
		timers:     make(map[string]*time.Timer),
		webhooks:   make(map[string]string),
		altered:    make(map[string]alteration),
		available:  cfg.InitialBalance,
		stats:      counters{requests: make(map[string]int)},
	}
	if cfg.FaultSeed != 0 {
		s.draws = mrand.New(mrand.NewPCG(cfg.FaultSeed, cfg.FaultSeed))
	}
	switch cfg.Contract {
	case ContractEfi:
		s.face = newEfiFace(s)
	case ContractWoovi:
		s.face = wooviFace{s}
	default:
		s.face = familyFace{s}
	}
	s.handler = s.routes()
	return s
}

// WebhookPublicKeyPEM is the PEM public key the woovi face signs its
// webhooks with ("" for other faces).
func (s *Sandbox) WebhookPublicKeyPEM() string {
	if s.cfg.SigningKey == nil {
		return ""
	}
	der, err := x509.MarshalPKIXPublicKey(&s.cfg.SigningKey.PublicKey)
	if err != nil {
		return ""
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
}

// Contract is the face the sandbox shows.
func (s *Sandbox) Contract() string { return s.cfg.Contract }

// Handler serves the face's contract and the /sandbox control endpoints.
func (s *Sandbox) Handler() http.Handler { return s.handler }

// Close stops settlement timers, ends notification senders and releases
// requests held by the timeout fault. It waits for the senders to return.
// Requests that arrive after Close still get answers, but nothing settles
// or notifies any more; a sandbox opened on a Store refuses every change
// after Close (ErrStore), since the store may pass to another sandbox. Close
// leaves the Store open: its owner closes it.
func (s *Sandbox) Close() {
	s.mu.Lock()
	s.closed = true
	for id, t := range s.timers {
		t.Stop()
		delete(s.timers, id)
	}
	s.mu.Unlock()
	s.cancel()
	s.wg.Wait()
}

func withDefaults(c Config) Config {
	switch c.Contract {
	case ContractEfi, ContractWoovi:
	default:
		c.Contract = ContractFamily
	}
	if c.PixKey == "" {
		c.PixKey = DefaultPixKey
	}
	if c.Contract == ContractWoovi && c.SigningKey == nil {
		c.SigningKey, _ = rsa.GenerateKey(rand.Reader, 2048)
	}
	if c.NotifyMaxInterval <= 0 {
		c.NotifyMaxInterval = DefaultNotifyMaxInterval
	}
	if c.NotifyMaxElapsed <= 0 {
		c.NotifyMaxElapsed = DefaultNotifyMaxElapsed
	}
	if c.ClientID == "" {
		c.ClientID = DefaultClientID
	}
	if c.ClientSecret == "" {
		c.ClientSecret = DefaultClientSecret
	}
	if c.TokenTTL <= 0 {
		c.TokenTTL = DefaultTokenTTL
	}
	if c.SettleDelay <= 0 {
		c.SettleDelay = DefaultSettleDelay
	}
	if c.ChargeExpiration <= 0 {
		c.ChargeExpiration = DefaultChargeExpiration
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	c.PublicHost = strings.TrimSuffix(c.PublicHost, "/")
	if _, rest, ok := strings.Cut(c.PublicHost, "://"); ok {
		c.PublicHost = rest
	}
	if c.PublicHost == "" || len(c.PublicHost) > maxPublicHost || strings.ContainsAny(c.PublicHost, "/ ") {
		if c.PublicHost != "" {
			c.Logger.Warn("sandbox public host unusable in a BR Code location; using the default",
				"public_host", c.PublicHost, "default", DefaultPublicHost)
		}
		c.PublicHost = DefaultPublicHost
	}
	c.MerchantName = truncate(orDefault(c.MerchantName, DefaultMerchantName), 25)
	c.MerchantCity = truncate(orDefault(c.MerchantCity, DefaultMerchantCity), 15)
	if c.InitialBalance <= 0 {
		c.InitialBalance = DefaultInitialBalance
	}
	if c.HTTPClient == nil {
		c.HTTPClient = &http.Client{
			Timeout: 5 * time.Second,
			CheckRedirect: func(*http.Request, []*http.Request) error {
				return http.ErrUseLastResponse
			},
		}
	}
	return c
}

func orDefault(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return strings.TrimSpace(s)
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return strings.TrimSpace(string(r[:n]))
	}
	return s
}
