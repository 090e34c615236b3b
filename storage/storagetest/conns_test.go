package storagetest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// With other clients holding most of Postgres's connections, a race test
// reported only "accepted 20, refused 11", which read as a concurrency bug.
// A refused connection now fails the test once, saying what happened and
// what the suite needs.
func TestARefusedConnectionSaysItIsOne(t *testing.T) {
	refused := fmt.Errorf("failed to connect to `user=postgres database=x`: %w",
		&pgconn.PgError{Severity: "FATAL", Code: "53300", Message: "sorry, too many clients already"})
	var reports []error
	r := &refusalTracer{report: func(err error) { reports = append(reports, err) }}
	for range 3 {
		r.TraceConnectEnd(context.Background(), pgx.TraceConnectEndData{Err: refused})
	}
	r.TraceConnectEnd(context.Background(), pgx.TraceConnectEndData{Err: errors.New("connection reset by peer")})
	if len(reports) != 1 {
		t.Fatalf("%d reports of three refusals, want one: %v", len(reports), reports)
	}
	msg := reports[0].Error()
	for _, want := range []string{"refused a connection", "too many clients", "max_connections is", "at most 16 connections",
		"TESTP", "sorry, too many clients already"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the report lacks %q: %s", want, msg)
		}
	}
	if !errors.Is(reports[0], refused) && !strings.Contains(msg, refused.Error()) {
		t.Errorf("the report lost the original error: %s", msg)
	}

	other := errors.New("dial tcp 127.0.0.1:1: connection refused")
	if got := explainRefusal(other); got != other {
		t.Errorf("explainRefusal changed an unrelated error: %v", got)
	}
}
