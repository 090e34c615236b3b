package api

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage/money"
)

// The attack corpus: hostile input of every class, sent to every endpoint.
// Every answer must be a 4xx in the one error shape, echo no secret and no
// internal detail, and leave every table as it was. New endpoints get
// their probes here (corpus_probes_test.go).

// probe is one hostile request. raw, when set, is written to the socket as
// is (for what an HTTP client refuses to send).
type probe struct {
	name    string
	method  string
	path    string
	token   string // Authorization: Bearer {token}, when set
	body    any    // see env.call
	headers []string
	raw     string
	size    int // when set: a body declared this large (see env.oversized)
}

// corpusSecrets is what no answer may contain.
type corpusSecrets struct {
	v1Token, secret, webhookToken, accessToken string
}

// leaks are the marks of internals: Go's types and errors, the database,
// the runtime, addresses, stack traces, and the secrets' own prefixes.
var leaks = []string{"Go struct", "Go value", "json: ", "unmarshal", "pgx", "SQLSTATE", "postgres", "redis", "goroutine",
	"runtime.", "panic", ".go:", "127.0.0.1", "dial tcp", "sk_", "whsec_", "pgat_", "Buffer size",
	"invalid character", "looking for beginning", "after object key"}

func TestAttackCorpus(t *testing.T) {
	e := newEnv(t, withWebhookToken, noTokenRateLimit, corpusProxy, func(s *setup) {
		s.cfg.ProviderWebhookToken = corpusWebhookToken
		s.cfg.V1RatePerMinute, s.cfg.V2RatePerMinute, s.cfg.AuthFailuresPerMinute = -1, -1, -1
		s.cfg.PostbackURLPolicy = refuseLoopback
	})
	in, token := e.integrator("Loja Alvo", money.Percent(10_000), money.Fixed(50))
	e.fund(in.ID, money.FromReais(500, 0))
	// Records to aim at, created before the snapshot.
	charge := e.call(http.MethodPost, "/api/v1/charges", token, validCharge(nil)).expect(t, http.StatusCreated)
	wd := e.call(http.MethodPost, "/api/v1/withdrawals", token, validWithdrawal(nil)).expect(t, http.StatusCreated)
	_, otherToken := e.integrator("Loja Vizinha", money.Percent(0), money.Fixed(0))
	other := e.call(http.MethodPost, "/api/v1/charges", otherToken, validCharge(nil)).expect(t, http.StatusCreated)
	secrets := corpusSecrets{v1Token: token, webhookToken: corpusWebhookToken, accessToken: e.accessToken(token)}
	_, secrets.secret = keyPair(token)

	targets := round2Targets(t, e, in, token, secrets.accessToken)

	probes := corpusProbes(secrets, charge.str("id"), wd.str("id"), other.str("id"), charge.str("pix_id"), other.str("pix_id"))
	probes = append(probes, round2Probes(secrets, targets)...)
	routes := corpusRoutes()
	aimed := map[string]int{}
	before := snapshot(t, e)
	for _, p := range probes {
		aimed[routes.of(p)]++
		r := e.send(p)
		if r.status < 400 || r.status >= 500 {
			t.Errorf("%s: status %d: %.300s", p.name, r.status, r.raw)
			continue
		}
		if r.str("code") == "" || r.str("message") == "" || r.get("statusCode") != fmt.Sprint(r.status) ||
			r.str("request_id") == "" || r.str("request_id") != r.header.Get("X-Request-Id") {
			t.Errorf("%s: not the error shape: %d %.300s", p.name, r.status, r.raw)
		}
		for _, s := range append(leaks, secrets.secret, secrets.webhookToken, secrets.accessToken) {
			if strings.Contains(r.raw, s) {
				t.Errorf("%s: the answer holds %q: %.300s", p.name, s, r.raw)
			}
		}
	}
	round2Inert(t, e, secrets, targets) // answered 200, changing nothing
	after := snapshot(t, e)
	for table, h := range before {
		if after[table] != h {
			t.Errorf("table %s changed under the corpus", table)
		}
	}
	// Every endpoint of the application is aimed at, with its own method
	// (a new endpoint without probes fails here).
	for _, ep := range routes.endpoints {
		if aimed[ep] == 0 {
			t.Errorf("no probe aims at %s", ep)
		}
	}
	t.Logf("attack corpus: %d inputs against %d endpoints (and %d method and path pairs no route takes), %d tables unchanged",
		len(probes), len(routes.endpoints), len(aimed)-len(routes.endpoints), len(before))
}

// appRoutes are the application's endpoints: "METHOD /pattern".
type appRoutes struct {
	endpoints []string
	patterns  []string
}

// corpusRoutes lists the endpoints the corpus must cover: every route but
// HEAD (Fiber's twin of GET), and the health probes and the API's own
// documents (/, /openapi.yaml, /docs), which read no input; those get
// wrong methods and unknown documents.
func corpusRoutes() appRoutes {
	var r appRoutes
	for _, rt := range New(Config{}, Deps{}).App().GetRoutes(true) {
		r.patterns = append(r.patterns, rt.Path)
		if rt.Method == http.MethodHead || slices.Contains([]string{"/healthz", "/readyz", "/", pathOpenAPI, pathDocs}, rt.Path) {
			continue
		}
		r.endpoints = append(r.endpoints, rt.Method+" "+rt.Path)
	}
	return r
}

// of names the endpoint a probe aims at: its method and the route pattern
// its path matches.
func (r appRoutes) of(p probe) string {
	method, path := p.method, p.path
	if p.raw != "" {
		method, path, _ = strings.Cut(p.raw, " ")
		path, _, _ = strings.Cut(path, " ")
	} else if p.size > 0 {
		method = http.MethodPost
	}
	path, _, _ = strings.Cut(path, "?")
	if slices.Contains(r.patterns, path) { // a literal route before a pattern that also matches
		return method + " " + path
	}
	for _, pattern := range r.patterns {
		if matchRoute(pattern, path) {
			return method + " " + pattern
		}
	}
	return method + " " + path
}

const corpusWebhookToken = "corpus-webhook-token-0123456789abcdef"

func refuseLoopback(_ context.Context, raw string) error {
	if strings.Contains(raw, "127.") || strings.Contains(raw, "localhost") || strings.Contains(raw, "169.254.") {
		return fmt.Errorf("private")
	}
	return nil
}

// send delivers a probe.
func (e *env) send(p probe) reply {
	e.t.Helper()
	switch {
	case p.raw != "":
		return e.raw(p.raw)
	case p.size > 0:
		return e.oversized(p.path, p.token, p.size)
	case len(p.path)+len(p.token)+len(strings.Join(p.headers, "")) > 3000:
		// Over fasthttp's 4 KiB head: the server answers 431 and closes
		// while an HTTP client may still be writing, which would fail the
		// client rather than show the answer.
		return e.raw(rawRequest(p))
	}
	return e.call(p.method, p.path, p.token, p.body, p.headers...)
}

// rawRequest writes a probe as env.call would send it.
func rawRequest(p probe) string {
	body, _ := p.body.(string)
	h := map[string]string{"Host": "pixgate.test", "Content-Length": fmt.Sprint(len(body))}
	if p.method == http.MethodPost {
		h["Content-Type"] = "application/json"
	}
	if p.token != "" {
		h["Authorization"] = "Bearer " + p.token
	}
	for i := 0; i+1 < len(p.headers); i += 2 {
		h[p.headers[i]] = p.headers[i+1]
	}
	var b strings.Builder
	b.WriteString(p.method + " " + p.path + " HTTP/1.1\r\n")
	for k, v := range h {
		if v != "" {
			b.WriteString(k + ": " + v + "\r\n")
		}
	}
	return b.String() + "\r\n" + body
}

// snapshot fingerprints every table of the database.
func snapshot(t *testing.T, e *env) map[string]string {
	t.Helper()
	ctx := context.Background()
	rows, _ := e.db.Pool().Query(ctx, `SELECT table_name FROM information_schema.tables
		WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`)
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil || len(tables) == 0 {
		t.Fatalf("tables: %v %v", tables, err)
	}
	out := map[string]string{}
	for _, table := range tables {
		var n int64
		var h string
		q := `SELECT count(*), coalesce(md5(string_agg(t::text, '|' ORDER BY t::text)), '') FROM ` + pgx.Identifier{table}.Sanitize() + ` t`
		if err := e.db.Pool().QueryRow(ctx, q).Scan(&n, &h); err != nil {
			t.Fatal(err)
		}
		out[table] = fmt.Sprint(n, ":", h)
	}
	return out
}
