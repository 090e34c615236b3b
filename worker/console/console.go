// Package console serves the money console: server-rendered pages under
// /console/ on the worker's side server, behind the operators' login of
// /monitoring. Operators see what needs a decision (reconciliation
// exceptions, to begin with) and take it there with a reason; each action
// goes through the same storage function the CLI calls, which records who,
// when and why in the operator actions and moves money only through the
// ledger's posting builders. No script, no front-end build: html/template
// pages and one stylesheet, embedded.
package console

import (
	"context"
	"embed"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// Store is what the console reads and the actions it takes, the storage
// functions the CLI uses (storage.DB implements it).
type Store interface {
	ReconciliationDays(ctx context.Context, limit int) ([]storage.ReconRun, error)
	ReconciliationItems(ctx context.Context, provider, day string, each func(storage.ReconItem) error) error
	ResolveReconciliationItem(ctx context.Context, id uuid.UUID, r storage.ReconResolution) (storage.ReconItem, error)
	OperatorActions(ctx context.Context, resourceID uuid.UUID) ([]storage.OperatorAction, error)
	FlaggedTransfers(ctx context.Context, limit int) ([]storage.FlaggedTransfer, error)
	LatePayouts(ctx context.Context, now time.Time, f storage.LateFilter) ([]storage.Transfer, error)
	AllEndpoints(ctx context.Context, since time.Time, limit int) ([]storage.WebhookEndpoint, error)
	PauseEndpoint(ctx context.Context, integratorID int64, url string) (storage.WebhookEndpoint, error)
	ResumeEndpoint(ctx context.Context, integratorID int64, url string, msg func(storage.Postback) storage.OutboxMessage) (storage.WebhookEndpoint, int, error)
	RedeliverEndpointPostbackRange(ctx context.Context, integratorID int64, url string, since, until time.Time, most int,
		msg func(storage.Postback) storage.OutboxMessage) (int, error)
	RecordOperatorAction(ctx context.Context, a storage.OperatorAction) (storage.OperatorAction, error)
	Providers(ctx context.Context) ([]storage.Provider, error)
	FloatBalances(ctx context.Context) (map[string]money.Money, error)
	LastReconCloses(ctx context.Context) (map[string]storage.ReconClose, error)
	StoredRoute(ctx context.Context, integratorID *int64) (storage.Route, bool, error)
	OpenInfractions(ctx context.Context, limit int) ([]storage.OpenMED, error)
	IntegratorDebts(ctx context.Context, limit int) ([]storage.IntegratorDebt, error)
}

// Config configures the console.
type Config struct {
	Store Store
	// Ops are the actions package worker implements (Operations).
	Ops Operations
	Log *slog.Logger
	// Operator names the operator a request is signed in as (the side
	// server's login has verified it before the console is reached); an
	// empty name is refused, so that no action goes unattributed.
	Operator func(*http.Request) string
}

// daysListed bounds the reconciliation page's list of days.
const daysListed = 60

type console struct {
	cfg   Config
	pages map[string]*template.Template
}

// New is the console's handler, for the paths under /console/.
func New(cfg Config) http.Handler {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	c := &console{cfg: cfg, pages: map[string]*template.Template{}}
	for _, page := range []string{"reconciliation.html", "reconciliation_day.html", "transfers.html", "endpoints.html", "providers.html", "infractions.html"} {
		// Each page is the layout with its own "content": parsed apart,
		// so one page's definitions never replace another's.
		c.pages[page] = template.Must(template.New("layout.html").Funcs(funcs).ParseFS(templateFS, "templates/layout.html", "templates/"+page))
	}
	static, _ := fs.Sub(staticFS, "static")
	mux := http.NewServeMux()
	mux.Handle("GET /console/static/", http.StripPrefix("/console/static/", http.FileServerFS(static)))
	mux.HandleFunc("GET /console/{$}", func(rw http.ResponseWriter, r *http.Request) {
		http.Redirect(rw, r, "/console/reconciliation", http.StatusSeeOther)
	})
	mux.HandleFunc("GET /console/reconciliation", c.reconDays)
	mux.HandleFunc("GET /console/reconciliation/{provider}/{day}", c.reconDay)
	mux.HandleFunc("POST /console/reconciliation/{provider}/{day}/resolve", c.reconResolve)
	mux.HandleFunc("GET /console/providers", c.providers)
	mux.HandleFunc("GET /console/infractions", c.infractions)
	mux.HandleFunc("GET /console/transfers", c.transfers)
	mux.HandleFunc("POST /console/transfers/{id}/{decision}", c.transferResolve)
	mux.HandleFunc("GET /console/endpoints", c.endpoints)
	mux.HandleFunc("POST /console/endpoints/replay", c.endpointReplay)
	mux.HandleFunc("POST /console/endpoints/{verb}", c.endpointAction)
	return c.signedIn(mux)
}

// signedIn refuses a request no operator is named for, and sets the
// headers every page carries: no framing (clickjacking), no caching of
// money figures, no sniffing.
func (c *console) signedIn(next http.Handler) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if c.cfg.Operator == nil || c.cfg.Operator(r) == "" {
			http.Error(rw, "unauthorized", http.StatusUnauthorized)
			return
		}
		h := rw.Header()
		h.Set("X-Frame-Options", "DENY")
		h.Set("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'; form-action 'self'")
		h.Set("Cache-Control", "no-store")
		h.Set("X-Content-Type-Options", "nosniff")
		next.ServeHTTP(rw, r)
	})
}

// view is what every page's template gets: the operator, the CSRF token
// its forms carry, the section the navigation marks, a message, and the
// page's own data.
type view struct {
	Operator, CSRF, Section string
	Error, Notice           string
	Data                    any
}

// render writes page with status; a template that fails is logged (the
// page is cut short) since the status is already sent.
func (c *console) render(rw http.ResponseWriter, r *http.Request, status int, page string, v view) {
	v.Operator, v.CSRF = c.cfg.Operator(r), csrfToken(rw, r)
	rw.Header().Set("Content-Type", "text/html; charset=utf-8")
	rw.WriteHeader(status)
	if err := c.pages[page].ExecuteTemplate(rw, "layout.html", v); err != nil {
		c.cfg.Log.Error("console page failed", "page", page, "error", err)
	}
}

// fail answers an internal error without its cause (it may name
// internal addresses), which goes to the log.
func (c *console) fail(rw http.ResponseWriter, r *http.Request, err error) {
	c.cfg.Log.Error("console request failed", "path", r.URL.Path, "error", err)
	http.Error(rw, "the console could not read or write its data; see the worker's log", http.StatusInternalServerError)
}
