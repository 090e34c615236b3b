package main

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// replayClientTimeout is how long the burst test's client waits for one
// answer: past the acquire deadline (5 s) with room to spare, so an answer
// missing after it is a request that hung.
const replayClientTimeout = 20 * time.Second

// replayAnswerWithin is how soon every request of a burst is answered: a
// few seconds, as a client retrying a refund expects. No request waits
// for a connection, so none comes near the acquire deadline's 503.
const replayAnswerWithin = 10 * time.Second

// paidCharges records n paid charges of R$ 10.00 for the integrator, as
// the worker would once the provider confirmed them, and returns their
// pix_ids.
func paidCharges(t *testing.T, db *storage.DB, integratorID int64, n int) []string {
	t.Helper()
	ctx := context.Background()
	var pixIDs []string
	for i := range n {
		id, _ := uuid.NewV7()
		h := sha256.Sum256(id[:])
		c, _, err := db.CreateCharge(ctx, storage.NewCharge{ID: id, IntegratorID: integratorID, ExternalID: fmt.Sprint("pago-", i),
			Amount: 1000, Fee: 0, Payer: storage.Payer{Name: "Fulano", Document: "52998224725"}, RequestHash: h[:]})
		if err == nil {
			err = db.InTx(ctx, func(tx *storage.Tx) error {
				_, _, err := tx.MarkChargePaid(ctx, c.ID, storage.Settlement{PixID: "pix-" + id.String(), At: time.Now()})
				return err
			})
		}
		if err != nil {
			t.Fatal(err)
		}
		pixIDs = append(pixIDs, "pix-"+id.String())
	}
	return pixIDs
}

// burst sends every body at once to a /v2 path and returns each answer's
// status (0: no answer; -503: a 503 without Retry-After) and how long the
// slowest and the whole burst took.
func burst(client *http.Client, url, token string, bodies []string) (statuses []int, slowest, total time.Duration) {
	statuses = make([]int, len(bodies))
	took := make([]time.Duration, len(bodies))
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, b := range bodies {
		wg.Go(func() {
			<-start
			began := time.Now()
			req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(b))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+token)
			if resp, err := client.Do(req); err == nil {
				statuses[i] = resp.StatusCode
				if resp.StatusCode == http.StatusServiceUnavailable && resp.Header.Get("Retry-After") == "" {
					statuses[i] = -resp.StatusCode // a 503 must say when to retry
				}
				resp.Body.Close()
			}
			took[i] = time.Since(began)
		})
	}
	began := time.Now()
	close(start)
	wg.Wait()
	return statuses, slices.Max(took), time.Since(began)
}

// Sixty identical refunds (one external_id, as a client retrying a refund
// that timed out sends them) reach a real pixgate api at once, on a pool
// of far fewer connections (the suite's storagetest.ProcessPool; 20 by
// default, where the hang was seen); then twenty refunds race over two
// charges. Each held a connection and waited for a second one, for good,
// when the replay was looked up through the pool: every request of the
// process hung and SIGTERM could not stop it. Now a create holds one
// connection at a time, so every request is answered with the refund (or
// a clear 422), none waits for a connection, the process serves other
// requests afterwards and stops on SIGTERM.
func TestConcurrentRefundReplaysDoNotWedgeTheAPI(t *testing.T) {
	storagetest.Parallel(t, cliConns+processConns)
	if testing.Short() {
		t.Skip("starts a process")
	}
	pg := newPixgate(t)
	var in struct {
		ID    int64
		Token string `json:"token"`
	}
	pg.json(&in, "integrator", "create", "--name", "Loja Estorno", "--email", "replay@loja.example", "--cashout-fee", "fixed:0.00")
	db := openSide(t, pg.env["PIXGATE_DATABASE_URL"])
	pixIDs := paidCharges(t, db, in.ID, 3)
	env := serviceEnv(t, pg, "http://127.0.0.1:1") // no provider call on these paths
	api := startProcess(t, env, "api")
	base := "http://" + env["PIXGATE_HTTP_ADDR"]
	waitHTTP(t, base+"/healthz", api)
	publicID, secret, _ := strings.Cut(in.Token, ".")
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	req, _ := http.NewRequest(http.MethodPost, base+"/v2/oauth/token", nil)
	req.SetBasicAuth(publicID, secret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("token: %v %v", resp, err)
	}
	err = json.NewDecoder(resp.Body).Decode(&tok)
	resp.Body.Close()
	if err != nil || tok.AccessToken == "" {
		t.Fatalf("token answer: %v", err)
	}

	client := &http.Client{Timeout: replayClientTimeout, Transport: &http.Transport{MaxIdleConnsPerHost: 100}}
	answered := func(what string, statuses []int, slowest time.Duration, allowed ...int) map[int]int {
		t.Helper()
		count, wrong := map[int]int{}, false
		for _, s := range statuses {
			count[s]++
			wrong = wrong || !slices.Contains(allowed, s)
		}
		if slowest > replayAnswerWithin {
			t.Errorf("%s: the slowest answer took %v, more than %v", what, slowest.Round(time.Millisecond), replayAnswerWithin)
		}
		if wrong {
			t.Errorf("%s: answers %v; each must be one of %v (0: none within %v)", what, count, allowed, replayClientTimeout)
		}
		return count
	}
	same := make([]string, 60)
	for i := range same {
		same[i] = `{"pix_id": "` + pixIDs[0] + `", "amount": 0.10, "external_id": "estorno-repetido"}`
	}
	statuses, slowest, total := burst(client, base+"/v2/pix/refund", tok.AccessToken, same)
	got := answered("60 identical refunds", statuses, slowest, http.StatusOK)
	t.Logf("60 identical refunds: %v; slowest answer %v, all answered in %v", got, slowest.Round(time.Millisecond), total.Round(time.Millisecond))

	var racing []string
	for i := range 20 {
		racing = append(racing, fmt.Sprintf(`{"pix_id": %q, "amount": 0.01, "external_id": "estorno-%d"}`, pixIDs[1+i%2], i))
	}
	statuses, slowest, total = burst(client, base+"/v2/pix/refund", tok.AccessToken, racing)
	got = answered("20 refunds over two charges", statuses, slowest, http.StatusOK, http.StatusUnprocessableEntity)
	t.Logf("20 refunds over two charges: %v; slowest answer %v, all answered in %v", got, slowest.Round(time.Millisecond), total.Round(time.Millisecond))

	// The process still serves everyone else, and stops on SIGTERM.
	if code, v := doJSON(t, http.MethodGet, base+"/api/v1/balance", "Bearer "+in.Token, nil); code != http.StatusOK {
		t.Fatalf("balance after the bursts: %d %v", code, v)
	}
	if code, v := doJSON(t, http.MethodGet, base+"/healthz", "", nil); code != http.StatusOK {
		t.Fatalf("healthz after the bursts: %d %v", code, v)
	}
	stopped := time.Now()
	api.stop(t, 20*time.Second)
	t.Logf("stopped %v after SIGTERM", time.Since(stopped).Round(time.Millisecond))
	var refunds int
	if err := db.Pool().QueryRow(context.Background(), `SELECT count(*) FROM refunds WHERE external_id = 'estorno-repetido'`).Scan(&refunds); err != nil || refunds != 1 {
		t.Fatalf("refunds stored for the repeated external_id: %d (%v), want 1", refunds, err)
	}
	if code, out, errs := pg.run("audit"); code != 0 {
		t.Fatalf("audit: %s%s", out, errs)
	}
}
