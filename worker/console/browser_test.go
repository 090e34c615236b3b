package console_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/storagetest"
	"github.com/pixgate/pixgate/worker"
)

// statement is a provider's statement over a slice of lines.
type statement struct {
	lines []storage.StatementLine
	i     int
}

func (s *statement) Next() bool                                 { s.i++; return s.i <= len(s.lines) }
func (s *statement) Line() storage.StatementLine                { return s.lines[s.i-1] }
func (s *statement) Err() error                                 { return nil }
func (s *statement) Balances() (money.Money, money.Money, bool) { return 0, 0, false }

// seedException reconciles yesterday with one line PixGate never heard
// of, as storage's reconciliation tests do: one open exception.
func seedException(t *testing.T, db *storage.DB) storage.ReconItem {
	t.Helper()
	loc := time.FixedZone("-03", -3*60*60)
	y, m, d := time.Now().In(loc).AddDate(0, 0, -1).Date()
	start := time.Date(y, m, d, 0, 0, 0, 0, loc)
	spec := storage.ReconSpec{Provider: "default", Day: start.Format(time.DateOnly), Start: start, End: start.AddDate(0, 0, 1),
		GraceUntil: time.Now().Add(-time.Hour), Boundary: 15 * time.Minute, Trigger: storage.TriggerOperator}
	line := storage.StatementLine{Kind: "charge", Direction: 1, ProviderID: "E-unknown-1", Amount: 1250, Status: "PAID", SettledAt: start.Add(12 * time.Hour)}
	if _, err := db.RunReconciliation(context.Background(), spec, &statement{lines: []storage.StatementLine{line}}); err != nil {
		t.Fatal(err)
	}
	var open []storage.ReconItem
	_ = db.ReconciliationItems(context.Background(), spec.Provider, spec.Day, func(it storage.ReconItem) error {
		if it.Status == storage.ReconOpen {
			open = append(open, it)
		}
		return nil
	})
	if len(open) != 1 {
		t.Fatalf("seeded %d open exceptions, want 1", len(open))
	}
	return open[0]
}

// chromium is the browser's path. CI installs it (.ci/run), so there its
// absence fails the test; elsewhere the test is skipped, saying why.
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("no chromium on PATH: .ci/run installs it (apt-get install chromium)")
	}
	t.Skip("no chromium on PATH (apt-get install chromium): the console's browser test is skipped outside CI")
	return ""
}

// In a real browser, an operator signs in to the worker's side server,
// sees the seeded exception, resolves it with a reason, and sees it gone
// and the operator action recorded under their name; settles the seeded
// stuck withdrawal, pauses and resumes its integrator's endpoint, each
// with a reason and recorded likewise; sees the open MED infraction and
// another integrator's debt; the ledger's audit is clean. With PIXGATE_CONSOLE_SCREENSHOTS=1 each page is saved under
// docs/console for the README.
func TestConsoleResolvesAnExceptionInABrowser(t *testing.T) {
	exe := chromium(t)
	db := storagetest.NewDB(t)
	item := seedException(t, db)
	in, stuck := seedStuck(t, db)
	disputed, owing := seedMED(t, db, in)
	ropts := storagetest.NewRedis(t)
	rdb := redis.NewClient(ropts)
	t.Cleanup(func() { _ = rdb.Close() })
	w := worker.New(worker.Config{}, worker.Deps{DB: db, Redis: rdb, Logger: slog.New(slog.DiscardHandler)})
	srv := httptest.NewServer(w.MonitorHandler(worker.MonitorConfig{User: "ana", Password: "s3cret",
		RedisConnOpt: asynq.RedisClientOpt{Addr: ropts.Addr, DB: ropts.DB}}))
	defer srv.Close()

	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.WindowSize(1280, 720))...)
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(actx)
	defer cancelBrowser()
	if err := chromedp.Do(bctx); err != nil { // starts the browser, for as long as bctx lives
		t.Fatal(err)
	}

	shots := os.Getenv("PIXGATE_CONSOLE_SCREENSHOTS") == "1"
	shoot := func(name string) chromedp.Action[chromedp.Void] {
		return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			if !shots {
				return nil
			}
			png, err := chromedp.FullScreenshot(100)(ctx, tg)
			if err != nil {
				return err
			}
			return os.WriteFile(filepath.Join("..", "..", "docs", "console", name+".png"), png, 0o644)
		})
	}
	// Each step has its own bound (the browser lives as long as bctx), and
	// a step that fails shows the page it failed on.
	do := func(steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		ctx, cancel := context.WithTimeout(bctx, 10*time.Second)
		defer cancel()
		if err := chromedp.Do(ctx, steps...); err != nil {
			ctx, cancel := context.WithTimeout(bctx, 2*time.Second)
			defer cancel()
			page, _ := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("body")))
			t.Fatalf("%v; the page: %s", err, page)
		}
	}
	text := func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(bctx, chromedp.Text(chromedp.CSS(sel)))
		if err != nil {
			t.Fatalf("%s: %v", sel, err)
		}
		return s
	}

	// Without the login, the console is not served (headless Chromium
	// shows no sign-in dialog: it fails the page, so plain HTTP asks).
	if resp, err := http.Get(srv.URL + "/console/reconciliation"); err != nil || resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("the console without a login: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}

	login := "Basic " + base64.StdEncoding.EncodeToString([]byte("ana:s3cret"))
	do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, network.SetExtraHTTPHeaders, network.SetExtraHTTPHeadersParams{Headers: network.Headers{"Authorization": login}})
		return err
	}), chromedp.Navigate(srv.URL+"/console/"), shoot("reconciliation"))
	days, operator := text("#days"), text("#operator")

	reason := "unknown PIX of yesterday: the payer's, refunded by the bank (ticket 88)"
	row := "#item-" + item.ID.String()
	do(chromedp.Click(chromedp.CSS("#days a")), chromedp.WaitVisible(chromedp.CSS("#open")))
	open := text("#open")
	do(chromedp.SendKeys(chromedp.CSS(row+" textarea"), reason), shoot("reconciliation-day"),
		chromedp.Click(chromedp.CSS(row+" button")), chromedp.WaitVisible(chromedp.CSS("#none-open")), shoot("reconciliation-resolved"))
	notice, resolved := text("#notice"), text("#resolved")
	if operator != "ana" || !strings.Contains(days, item.Day) {
		t.Errorf("the days page: operator %q, days %q", operator, days)
	}
	if !strings.Contains(open, string(item.Kind)) || !strings.Contains(open, "E-unknown-1") {
		t.Errorf("the day's open exceptions do not show the seeded one: %q", open)
	}
	if !strings.Contains(notice, item.ID.String()) {
		t.Errorf("notice after resolving: %q", notice)
	}
	for _, want := range []string{reason, "reconciliation.resolve by ana"} {
		if !strings.Contains(resolved, want) {
			t.Errorf("the resolved exception's row lacks %q: %q", want, resolved)
		}
	}

	actions, err := db.OperatorActions(context.Background(), item.ID)
	if err != nil || len(actions) != 1 || actions[0].Operator != "ana" || actions[0].Reason != reason || actions[0].Action != "reconciliation.resolve" {
		t.Fatalf("operator actions: %+v, %v", actions, err)
	}

	// The providers, read only: the default one's float.
	do(chromedp.Click(chromedp.CSS(`header a[href="/console/providers"]`)), chromedp.WaitVisible(chromedp.CSS("#provider-default")), shoot("providers"))
	if got := text("#provider-default"); !strings.Contains(got, "default") {
		t.Errorf("the providers page: %q", got)
	}

	// MED, read only: the open infraction, all of it blocked; the other
	// integrator's debt.
	do(chromedp.Click(chromedp.CSS(`header a[href="/console/infractions"]`)), chromedp.WaitVisible(chromedp.CSS("#infractions")), shoot("infractions"))
	if got := text("#infraction-" + disputed.ID.String()); !strings.Contains(got, "Loja") || !strings.Contains(got, "120.00") {
		t.Errorf("the open infraction's row: %q", got)
	}
	if got := text(fmt.Sprintf("#debt-%d", owing.ID)); !strings.Contains(got, "Mercado") || !strings.Contains(got, "70.00") {
		t.Errorf("the debt's row: %q", got)
	}

	// The stuck withdrawal, settled: it left, says the provider.
	settled := "the provider's statement shows it paid (ticket 4411)"
	row = "#transfer-" + stuck.ID.String()
	do(chromedp.Click(chromedp.CSS(`header a[href="/console/transfers"]`)), chromedp.WaitVisible(chromedp.CSS(row)),
		chromedp.WaitVisible(chromedp.CSS("#late-"+stuck.ID.String()+".open")),
		chromedp.SendKeys(chromedp.CSS(row+" form.settle textarea"), settled), shoot("transfers"),
		chromedp.Click(chromedp.CSS(row+" form.settle button")), chromedp.WaitVisible(chromedp.CSS("#none-flagged")),
		chromedp.WaitVisible(chromedp.CSS("#late-"+stuck.ID.String()+":not(.open)"))) // settled, and late still
	if notice := text("#notice"); !strings.Contains(notice, stuck.ID.String()) || !strings.Contains(notice, "COMPLETED") {
		t.Errorf("notice after settling: %q", notice)
	}
	actions, err = db.OperatorActions(context.Background(), stuck.ID)
	if err != nil || len(actions) != 1 || actions[0].Operator != "ana" || actions[0].Reason != settled ||
		actions[0].Action != "withdrawal.settle" || actions[0].LedgerTransactionID == nil {
		t.Fatalf("the settle's operator actions: %+v, %v", actions, err)
	}

	// Its postback's endpoint, paused then resumed.
	endpoint := storage.EndpointResourceID(in.ID, hookURL)
	row = "#endpoint-" + endpoint.String()
	for i, step := range []struct{ reason, status string }{
		{"the integrator's deploy, until 18:00 (ticket 12)", "PAUSED"},
		{"the integrator's deploy is done (ticket 12)", "ACTIVE"},
	} {
		// Loaded afresh (a click on the nav could leave the last page's row
		// and notice in view): the notice awaited below is this step's.
		do(chromedp.Navigate(srv.URL+"/console/endpoints"), chromedp.WaitVisible(chromedp.CSS(row)),
			chromedp.SendKeys(chromedp.CSS(row+" textarea"), step.reason))
		if i == 0 {
			do(shoot("endpoints"))
		}
		do(chromedp.Click(chromedp.CSS(row+" button")), chromedp.WaitVisible(chromedp.CSS("#notice")))
		if i == 1 {
			do(shoot("endpoints-resumed"))
		}
		if got := text(row + " .status"); got != step.status {
			t.Errorf("the endpoint after %q: %q, want %s", step.reason, got, step.status)
		}
	}
	// Its postbacks of the last hour, replayed.
	replay := row + ` form[action="/console/endpoints/replay"]`
	now := time.Now().UTC()
	// Loaded afresh, with no notice: the one awaited is the replay's.
	do(chromedp.Navigate(srv.URL+"/console/endpoints"), chromedp.WaitVisible(chromedp.CSS(row)),
		chromedp.SetValue(chromedp.CSS(replay+` input[name="since"]`), now.Add(-time.Hour).Format("2006-01-02T15:04")),
		chromedp.SetValue(chromedp.CSS(replay+` input[name="until"]`), now.Add(time.Hour).Format("2006-01-02T15:04")),
		chromedp.SendKeys(chromedp.CSS(replay+" textarea"), "the integrator lost its queue (ticket 13)"),
		chromedp.Click(chromedp.CSS(replay+" button")), chromedp.WaitVisible(chromedp.CSS("#notice")))
	if notice := text("#notice"); !strings.Contains(notice, "replayed") || strings.Contains(notice, " 0 postbacks") {
		t.Errorf("notice after the replay: %q", notice)
	}
	actions, err = db.OperatorActions(context.Background(), endpoint)
	if err != nil || len(actions) != 3 || actions[0].Action != "endpoint.pause" || actions[1].Action != "endpoint.resume" || actions[1].Operator != "ana" ||
		actions[2].Action != "endpoint.replay" {
		t.Fatalf("the endpoint's operator actions: %+v, %v", actions, err)
	}
	if v, err := db.Audit(context.Background()); err != nil || len(v) != 0 {
		t.Fatalf("audit after the resolve: %v, %v", v, err)
	}
}
