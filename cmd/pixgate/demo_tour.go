package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// tour drives the API as an integrator would and prints every exchange.
type tour struct {
	api, sandbox, token string
	out                 io.Writer
	http                *http.Client
	now                 func() time.Time
}

// answer is a decoded JSON answer.
type answer map[string]any

func (a answer) str(key string) string {
	s, _ := a[key].(string)
	return s
}

// jsonAmount writes an amount as the JSON number it is, two decimals kept.
func jsonAmount(s string) json.RawMessage { return json.RawMessage(s) }

func (t *tour) say(what string) { fmt.Fprintf(t.out, "\n# %s\n", what) }

// do sends one request, prints it and its answer, and fails unless the
// answer has the wanted status.
func (t *tour) do(ctx context.Context, method, url string, body any, want int) (answer, error) {
	return t.doAs(ctx, t.v1Auth(url), method, url, body, want)
}

// doAs is do with the given Authorization header ("" for none).
func (t *tour) doAs(ctx context.Context, auth, method, url string, body any, want int) (answer, error) {
	status, raw, err := t.exchange(ctx, auth, method, url, body, true)
	if err != nil {
		return nil, err
	}
	if status != want {
		return nil, fmt.Errorf("%s %s answered %d, expected %d%s", method, url, status, want, statusHint(status))
	}
	var a answer
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&a); err != nil {
		return nil, fmt.Errorf("%s %s: the answer is not JSON: %w", method, url, err)
	}
	return a, nil
}

// await polls a v1 record until it reaches status, for at most 15
// seconds, and prints the record as it ends up.
func (t *tour) await(ctx context.Context, url, status string) error {
	return t.poll(ctx, "GET "+url, status, func(show bool) (int, []byte, error) {
		return t.exchange(ctx, t.v1Auth(url), http.MethodGet, url, nil, show)
	})
}

// awaitV2 is await for a v2 transaction, through consult-transaction.
func (t *tour) awaitV2(ctx context.Context, auth, pixID, status string) error {
	url := t.api + "/v2/consult-transaction"
	return t.poll(ctx, "POST "+url+" "+pixID, status, func(show bool) (int, []byte, error) {
		return t.exchange(ctx, auth, http.MethodPost, url, map[string]string{"pix_id": pixID}, show)
	})
}

// poll repeats fetch every 200 ms until its answer's status (requestBody's
// for v2, as the family's clients read it) is status, then fetches once more,
// printing. An answer other than 200 stops it at once, shown.
func (t *tour) poll(ctx context.Context, what, status string, fetch func(show bool) (int, []byte, error)) error {
	deadline := time.Now().Add(15 * time.Second)
	for {
		code, raw, err := fetch(false)
		if err != nil {
			return err
		}
		var rec struct {
			Status      string
			RequestBody *struct{ Status string } `json:"requestBody"`
		}
		_ = json.Unmarshal(raw, &rec)
		if rec.RequestBody != nil {
			rec.Status = rec.RequestBody.Status
		}
		if code != http.StatusOK {
			// A refused key, a rate limit, a failing server: asking again
			// would not help, and repeated refusals get 127.0.0.1 limited.
			fmt.Fprintf(t.out, "==> %s\n<== %d %s\n%s\n", what, code, http.StatusText(code), indented(raw))
			return fmt.Errorf("%s answered %d, expected 200%s", what, code, statusHint(code))
		}
		if rec.Status == status {
			_, _, err := fetch(true)
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s: still %q after 15 s, expected %s (is a worker running?)", what, rec.Status, status)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// v1Auth is the Authorization header for url: the v1 key for PixGate's v1
// routes, nothing elsewhere (the sandbox's control routes).
func (t *tour) v1Auth(url string) string {
	if strings.HasPrefix(url, t.api+"/api/") {
		return "Bearer " + t.token
	}
	return ""
}

// exchange sends a request and returns the answer; when show is set both
// are printed, bodies indented (and credentials shortened).
func (t *tour) exchange(ctx context.Context, auth, method, url string, body any, show bool) (int, []byte, error) {
	var payload []byte
	if body != nil {
		payload, _ = json.Marshal(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(payload))
	if err != nil {
		return 0, nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	if show {
		fmt.Fprintf(t.out, "==> %s %s\n", method, url)
		if scheme, _, ok := strings.Cut(auth, " "); ok {
			fmt.Fprintf(t.out, "    Authorization: %s …\n", scheme)
		}
		if body != nil {
			fmt.Fprintf(t.out, "%s\n", indented(payload))
		}
	}
	resp, err := t.http.Do(req)
	if err != nil {
		return 0, nil, fmt.Errorf("%s %s: %w (is pixgate dev running?)", method, url, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return 0, nil, err
	}
	if show {
		fmt.Fprintf(t.out, "<== %s\n%s\n", resp.Status, indented(raw))
	}
	return resp.StatusCode, raw, nil
}

// statusHint says what an error status usually means on the tour.
func statusHint(code int) string {
	switch code {
	case http.StatusUnauthorized:
		return ": the API refused the key (is it the demo key of the pixgate dev running on that address, on the same database?)"
	case http.StatusTooManyRequests:
		return ": rate-limited; wait a minute before trying again"
	}
	return ""
}

func indented(b []byte) []byte {
	var out bytes.Buffer
	if json.Indent(&out, b, "", "  ") != nil {
		return b
	}
	return out.Bytes()
}
