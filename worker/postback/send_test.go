package postback

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/worker/postback/postbacktest"
)

func TestSend(t *testing.T) {
	var got *http.Request
	var gotBody []byte
	mux := http.NewServeMux()
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) {
		got, gotBody = r, must(io.ReadAll(r.Body))
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/ok", http.StatusFound) })
	mux.HandleFunc("/gone", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusGone) })
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body) // the server notices the client leaving only once the body is read
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	cfg := Config{AllowHTTP: true, AllowPrivate: true, Timeout: 300 * time.Millisecond}
	client := NewHTTPClient(cfg)
	req := Request{ID: uuid.New(), Body: []byte(`{"requestBody":{}}`), Secret: refSecret}
	send := func(path string) Result {
		r := req
		r.URL = srv.URL + path + "?token=s3cr3t"
		return Send(context.Background(), client, cfg, r)
	}

	if res := send("/ok"); !res.Delivered() || res.StatusCode != 204 || res.Latency <= 0 {
		t.Fatalf("/ok: %+v", res)
	}
	if string(gotBody) != string(req.Body) || got.Header.Get("Content-Type") != "application/json" || got.UserAgent() != UserAgent {
		t.Fatalf("request: %v %s", got.Header, gotBody)
	}
	if err := postbacktest.Verify(refSecret, got.Header, gotBody, time.Minute); err != nil || got.Header.Get(HeaderID) != req.ID.String() {
		t.Fatalf("signature does not verify: %v", err)
	}

	got = nil
	if res := send("/moved"); res.Delivered() || res.StatusCode != 302 || res.Err == nil || got != nil {
		t.Fatalf("/moved: %+v (followed: %v)", res, got != nil)
	}
	if res := send("/gone"); !res.Gone() || res.Delivered() {
		t.Fatalf("/gone: %+v", res)
	}
	res := send("/slow")
	if res.StatusCode != 0 || res.Err == nil || !strings.Contains(res.Err.Error(), "timeout") {
		t.Fatalf("/slow: %+v", res)
	}
	if strings.Contains(res.Err.Error(), "s3cr3t") || strings.Contains(res.Err.Error(), srv.URL) {
		t.Fatalf("error text carries the URL: %v", res.Err)
	}
	r := req
	r.URL = "ftp://example.com/"
	if res := Send(context.Background(), client, cfg, r); !res.Permanent || !errors.Is(res.Err, ErrInvalidURL) {
		t.Fatalf("ftp URL: %+v", res)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
