package statements

import (
	"context"
	"crypto/sha256"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/connectors"
	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// faces are the sandbox's faces, each with the connector of its contract
// reading its statement: the family's extension (with the day's
// balances), Efí's and Woovi's transaction lists (without).
var faces = []struct {
	name string
	open func(t *testing.T) (*sandbox.Sandbox, providerclient.Connector)
}{
	{"family", func(t *testing.T) (*sandbox.Sandbox, providerclient.Connector) {
		sb := sandbox.New(sandbox.Config{SettleDelay: 20 * time.Millisecond})
		srv := httptest.NewServer(sb.Handler())
		t.Cleanup(srv.Close)
		t.Cleanup(sb.Close)
		return sb, openConnector(t, providerclient.Config{Kind: providerclient.KindFamily, BaseURL: srv.URL,
			ClientID: sandbox.DefaultClientID, ClientSecret: sandbox.DefaultClientSecret, Extensions: true})
	}},
	{"efi", func(t *testing.T) (*sandbox.Sandbox, providerclient.Connector) {
		m, err := sandbox.NewTLSMaterial()
		if err != nil {
			t.Fatal(err)
		}
		sb := sandbox.New(sandbox.Config{Contract: sandbox.ContractEfi, SettleDelay: 20 * time.Millisecond})
		srv := httptest.NewUnstartedServer(sb.APIHandler())
		if srv.TLS, err = m.ServerConfig(); err != nil {
			t.Fatal(err)
		}
		srv.StartTLS()
		// Efí sends from a key with a webhook: the connector registers one.
		hook := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
		t.Cleanup(hook.Close)
		t.Cleanup(srv.Close)
		t.Cleanup(sb.Close)
		return sb, openConnector(t, providerclient.Config{Kind: providerclient.KindEfi, BaseURL: srv.URL,
			ClientID: sandbox.DefaultClientID, ClientSecret: sandbox.DefaultClientSecret, PixKey: sandbox.DefaultPixKey,
			TLS:        providerclient.TLSFiles{CertPEM: m.ClientCert, KeyPEM: m.ClientKey, CAPEM: m.CACert},
			WebhookURL: hook.URL + "/webhooks/provider/token"})
	}},
	{"woovi", func(t *testing.T) (*sandbox.Sandbox, providerclient.Connector) {
		sb := sandbox.New(sandbox.Config{Contract: sandbox.ContractWoovi, ClientID: "app-id", SettleDelay: 20 * time.Millisecond})
		srv := httptest.NewServer(sb.Handler())
		t.Cleanup(srv.Close)
		t.Cleanup(sb.Close)
		return sb, openConnector(t, providerclient.Config{Kind: providerclient.KindWoovi, BaseURL: srv.URL, ClientID: "app-id",
			WebhookPublicKey: sb.WebhookPublicKeyPEM()})
	}},
}

func openConnector(t *testing.T, cfg providerclient.Config) providerclient.Connector {
	t.Helper()
	cfg.Name, cfg.Timeout = "default", 2*time.Second
	c, err := connectors.Bare(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// On each face of the sandbox, every discrepancy it injects, and a charge
// it settled that PixGate has not seen paid, is reported exactly once,
// with its kind, once the grace period is over; nothing else is (a
// withdrawal and a refund sent through the face are matched). Resolving
// each with its adjustment leaves the ledger's audit clean, and the day,
// run again, reconciles.
func TestEachFaceReportsEachDiscrepancyOnce(t *testing.T) {
	for _, f := range faces {
		t.Run(f.name, func(t *testing.T) {
			sb, conn := f.open(t)
			db := storagetest.NewDB(t)
			ctx := context.Background()
			in, _, err := db.CreateIntegrator(ctx, storage.NewIntegrator{Name: "Acme", Email: "acme@example.com",
				CashIn: money.Fixed(0), CashOut: money.Fixed(0)})
			if err != nil {
				t.Fatal(err)
			}
			first := providerclient.DayOf(time.Now())
			var charges []providerclient.Ref
			var pixIDs []string
			for i, reais := range []int64{10, 20, 30, 40, 50} {
				c := payAtProvider(t, db, conn, sb, in.ID, money.FromReais(reais, 0), i < 4)
				charges, pixIDs = append(charges, c), append(pixIDs, c.ProviderID)
			}
			sendAtProvider(t, db, conn, in.ID, charges[0])
			if _, err := sb.InjectUnknownPix(money.FromReais(7, 0)); err != nil {
				t.Fatal(err)
			}
			for _, alt := range []struct {
				id, kind string
				amount   money.Money
			}{{pixIDs[1], sandbox.DiscrepancyAmount, money.FromReais(21, 0)}, {pixIDs[2], sandbox.DiscrepancyDropped, 0},
				{pixIDs[3], sandbox.DiscrepancyDuplicate, 0}} {
				if _, err := sb.AlterStatement(alt.id, alt.kind, alt.amount); err != nil {
					t.Fatal(err)
				}
			}

			r := New(Config{}, db, func() []providerclient.Connector { return []providerclient.Connector{conn} },
				slog.New(slog.NewTextHandler(io.Discard, nil)), nil)
			r.now = func() time.Time { return time.Now().Add(DefaultGrace + 24*time.Hour) } // every grace period is over
			days := []providerclient.Day{first}
			if last := providerclient.DayOf(time.Now()); last != first { // the test crossed midnight
				days = append(days, last)
			}
			runDays := func() (runs []storage.ReconRun, items []storage.ReconItem) {
				t.Helper()
				for _, d := range days {
					run, err := r.Run(ctx, "default", d, storage.TriggerOperator)
					if err != nil {
						t.Fatal(err)
					}
					runs = append(runs, run)
					if err := db.ReconciliationItems(ctx, "default", d.String(), func(it storage.ReconItem) error {
						if it.Kind != storage.ReconMatched {
							items = append(items, it)
						}
						return nil
					}); err != nil {
						t.Fatal(err)
					}
				}
				return runs, items
			}

			_, items := runDays()
			found := map[storage.ReconKind]int{}
			for _, it := range items {
				found[it.Kind]++
				if it.Status != storage.ReconOpen {
					t.Errorf("item %s: %s %s, not an open exception", it.Key, it.Kind, it.Status)
				}
			}
			for _, k := range storage.ReconExceptionKinds {
				if found[k] != 1 {
					t.Errorf("%s reported %d times, want once (all: %v)", k, found[k], found)
				}
			}
			if len(items) != len(storage.ReconExceptionKinds) {
				t.Fatalf("%d items, want one of each exception kind: %v", len(items), found)
			}

			for _, it := range items {
				if _, err := db.ResolveReconciliationItem(ctx, it.ID, storage.ReconResolution{Operator: "ana",
					Reason: "checked with the provider", PostAdjustment: true}); err != nil {
					t.Fatalf("resolve %s: %v", it.Kind, err)
				}
			}
			if v, err := db.Audit(ctx); err != nil || len(v) != 0 {
				t.Fatalf("audit after the resolutions: %v, %v", v, err)
			}
			runs, _ := runDays()
			for _, run := range runs {
				if !run.Reconciled() {
					t.Errorf("%s after the resolutions: %d open, unexplained %v", run.Day, run.OpenExceptions, run.Unexplained)
				}
			}
		})
	}
}

// payAtProvider makes a charge of PixGate's through conn, has the sandbox
// pay it and, when seen, books it paid as PixGate's worker does on hearing
// of it. It returns the charge as the provider knows it.
func payAtProvider(t *testing.T, db *storage.DB, conn providerclient.Connector, sb *sandbox.Sandbox, integrator int64,
	amount money.Money, seen bool) providerclient.Ref {
	t.Helper()
	ctx := context.Background()
	id := uuid.Must(uuid.NewV7())
	h := sha256.Sum256(id[:])
	if _, _, err := db.CreateCharge(ctx, storage.NewCharge{ID: id, IntegratorID: integrator, ExternalID: id.String(), Amount: amount,
		Payer: storage.Payer{Name: "Fulano", Document: "52998224725"}, RequestHash: h[:]}); err != nil {
		t.Fatal(err)
	}
	ch, err := conn.CreateCharge(ctx, providerclient.ChargeRequest{ID: id.String(), Amount: amount,
		Payer: providerclient.Party{Name: "Fulano de Tal", Document: "52998224725"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.IssueCharge(ctx, id, storage.ChargeIssue{PixID: ch.ProviderID, QRCode: "qr", ExpiresAt: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	paid, err := sb.PayCharge(ch.ProviderID, sandbox.Payer{})
	if err != nil {
		t.Fatal(err)
	}
	if seen {
		if err := db.InTx(ctx, func(tx *storage.Tx) error {
			_, _, err := tx.MarkChargePaid(ctx, id, storage.Settlement{PixID: ch.ProviderID, EndToEndID: paid.EndToEndID, At: time.Now()})
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	return providerclient.Ref{Kind: providerclient.KindCharge, ID: id.String(), ProviderID: ch.ProviderID, EndToEndID: paid.EndToEndID}
}

// sendAtProvider sends a withdrawal and a refund of charge through conn,
// as PixGate's worker does, and books each completed, with what the
// provider reports of it, once the provider settled it.
func sendAtProvider(t *testing.T, db *storage.DB, conn providerclient.Connector, integrator int64, charge providerclient.Ref) {
	t.Helper()
	ctx := context.Background()
	if _, err := db.CreditWallet(ctx, integrator, money.FromReais(100, 0), "seed"); err != nil {
		t.Fatal(err)
	}
	amount := money.FromReais(5, 0)
	wid, rid := uuid.Must(uuid.NewV7()), uuid.Must(uuid.NewV7())
	hw, hr := sha256.Sum256(wid[:]), sha256.Sum256(rid[:])
	party := storage.CreditParty{Name: "Beltrano", KeyType: "EVP", Key: "123e4567-e89b-12d3-a456-426614174000", TaxID: "52998224725"}
	if _, _, err := db.CreateWithdrawal(ctx, storage.NewWithdrawal{ID: wid, IntegratorID: integrator, Amount: amount,
		RequestHash: hw[:], CreditParty: party}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.CreateRefund(ctx, storage.NewRefund{ID: rid, IntegratorID: integrator, ChargePixID: charge.ProviderID,
		Amount: amount, RequestHash: hr[:]}); err != nil {
		t.Fatal(err)
	}
	po, err := conn.SendPix(ctx, providerclient.PayoutRequest{ID: wid.String(), Amount: amount,
		Recipient: providerclient.Recipient{Name: party.Name, KeyType: party.KeyType, Key: party.Key, TaxID: party.TaxID}})
	if err != nil {
		t.Fatal(err)
	}
	rf, err := conn.Refund(ctx, providerclient.RefundRequest{ID: rid.String(), Charge: charge, Amount: amount})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []struct {
		kind storage.TransferKind
		ref  providerclient.Ref
	}{
		{storage.KindWithdrawal, providerclient.Ref{Kind: providerclient.KindPayout, ID: wid.String(), ProviderID: po.ProviderID}},
		{storage.KindRefund, providerclient.Ref{Kind: providerclient.KindRefund, ID: rid.String(), ProviderID: rf.ProviderID,
			Charge: &charge}}, // Efí reads a refund under its charge's PIX
	} {
		id := uuid.MustParse(s.ref.ID)
		if err := db.RecordTransferSent(ctx, s.kind, id, s.ref.ProviderID, ""); err != nil {
			t.Fatal(err)
		}
		var read *providerclient.Transaction
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			if read, err = conn.Read(ctx, s.ref); err == nil && read.Status == providerclient.StatusCompleted {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s %s not settled: %+v, %v", s.kind, id, read, err)
			}
		}
		if err := db.InTx(ctx, func(tx *storage.Tx) error {
			_, _, err := tx.CompleteTransfer(ctx, s.kind, id, storage.Settlement{PixID: read.ProviderID, EndToEndID: read.EndToEndID,
				At: time.Now()})
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
}
