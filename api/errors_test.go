package api

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/pixgate/pixgate/storage/money"
)

func TestErrorsHaveOneShape(t *testing.T) {
	e := newEnv(t)
	_, token := e.integrator("Loja Erros", money.Percent(0), money.Fixed(0))
	e.call(http.MethodGet, "/nowhere", "", nil).expectError(t, 404, codeNotFound)
	e.call(http.MethodGet, "/api/v1/nowhere", token, nil).expectError(t, 404, codeNotFound)
	e.call(http.MethodDelete, "/api/v1/charges", token, nil).expectError(t, 405, codeMethodNotAllowed)
	e.call(http.MethodPut, "/api/v1/balance", token, "{}").expectError(t, 405, codeMethodNotAllowed)

	ok := e.call(http.MethodGet, "/healthz", "", nil).expect(t, 200)
	if ok.header.Get("X-Request-Id") == "" {
		t.Fatal("no X-Request-Id on a success")
	}
	e.call(http.MethodGet, "/readyz", "", nil).expect(t, 200)
}

func TestPanicIsAnInternalErrorWithoutDetails(t *testing.T) {
	logs := &syncBuffer{}
	srv := New(Config{}, Deps{Logger: newTestLogger(logs)})
	srv.App().Get("/boom", func(*fiber.Ctx) error { panic("secret detail") })
	resp, err := srv.App().Test(newRequest(http.MethodGet, "/boom"), -1)
	if err != nil {
		t.Fatal(err)
	}
	r := readReply(t, resp)
	r.expectError(t, 500, codeInternal)
	if contains(r.raw, "secret detail") {
		t.Fatalf("internals leaked: %s", r.raw)
	}
	if !contains(logs.String(), "secret detail") || !contains(logs.String(), r.str("request_id")) {
		t.Fatalf("the panic was not logged with the request id: %s", logs.String())
	}
}

// TestOddInputIsNeverAServerError sends what Postgres would refuse as text
// (NUL, invalid UTF-8, lone surrogates) through every door: each one must be
// a 4xx or a clean success, never a 500.
func TestOddInputIsNeverAServerError(t *testing.T) {
	e := newEnv(t)
	in, token := e.integrator("Loja Estranha", money.Percent(0), money.Fixed(0))
	e.fund(in.ID, money.FromReais(10, 0))
	for _, path := range []string{"/api/v1/charges/%FF", "/api/v1/charges/%00", "/api/v1/withdrawals/%C3%28",
		"/api/v1/charges/" + strings.Repeat("a", 300)} {
		e.call(http.MethodGet, path, token, nil).expectError(t, 404, codeNotFound)
	}
	for _, header := range []string{"Bearer pk_\xff.sk_x", "Bearer pk_%00.sk_x", "Bearer " + strings.Repeat("p", 500) + ".s"} {
		e.call(http.MethodGet, "/api/v1/balance", "", nil, "Authorization", header).expectError(t, 401, codeUnauthenticated)
	}
	weird := map[string]string{"split": "{\"a\":\"\xff\\ud800\"}", "external_id": "\"\xff\xfe\"", "payerQuestion": "\"\xc3\x28\""}
	r := e.call(http.MethodPost, "/api/v1/charges", token, validCharge(weird))
	if r.status >= 500 {
		t.Fatalf("charge with odd bytes: %s", r.raw)
	}
	wd := e.call(http.MethodPost, "/api/v1/withdrawals", token,
		validWithdrawal(map[string]string{"description": "\"\xff\"", "external_id": "\"w\xff\""}))
	if wd.status >= 500 {
		t.Fatalf("withdrawal with odd bytes: %s", wd.raw)
	}
}

// A database that cannot be reached (restarting, failing over), or whose
// connections all stayed busy past the acquire deadline, is not a
// fault of PixGate's: 503 service_unavailable with Retry-After, as for any
// dependency that is down, never 500.
func TestDatabaseOutageIsUnavailableNotAFault(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := ln.Addr().String()
	ln.Close()
	_, refused := pgx.Connect(context.Background(), "postgres://postgres@"+down+"/pixgate?sslmode=disable&connect_timeout=2")
	if refused == nil {
		t.Fatal("connected where nothing listens")
	}
	srv := New(Config{}, Deps{Logger: newTestLogger(&syncBuffer{})})
	srv.App().Get("/refused", func(*fiber.Ctx) error { return fmt.Errorf("storage: active key: %w", refused) })
	srv.App().Get("/shutdown", func(*fiber.Ctx) error {
		return fmt.Errorf("storage: wallet: %w", &pgconn.PgError{Severity: "FATAL", Code: "57P01", Message: "terminating connection due to administrator command"})
	})
	srv.App().Get("/busy", func(*fiber.Ctx) error { return fmt.Errorf("storage: create refund: %w", context.DeadlineExceeded) })
	srv.App().Get("/bug", func(*fiber.Ctx) error { return &pgconn.PgError{Code: "42703", Message: "column does not exist"} })
	for path, want := range map[string]int{"/refused": 503, "/shutdown": 503, "/busy": 503, "/bug": 500} {
		resp, err := srv.App().Test(newRequest(http.MethodGet, path), -1)
		if err != nil {
			t.Fatal(err)
		}
		r := readReply(t, resp)
		if want == 500 {
			r.expectError(t, 500, codeInternal)
			continue
		}
		r.expectError(t, 503, codeUnavailable)
		if got := r.header.Get("Retry-After"); got != "1" {
			t.Fatalf("%s: Retry-After %q, want 1", path, got)
		}
		if contains(r.raw, down) {
			t.Fatalf("%s: the database's address leaked: %s", path, r.raw)
		}
	}
}
