// Command flow runs a v1 and a v2 flow against a PixGate with the Go client
// oapi-codegen generates from docs/openapi.yaml (into ../pixgate, which is
// not kept in the repository: the test that runs this generates it first).
//
// The integrator behind PIXGATE_KEY has R$ 197,143.76 available, a cash-in
// fee of 1.5 % and a cash-out fee of R$ 0.50; every amount read back must be
// the amount written, to the centavo.
package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"reflect"
	"strings"
	"time"

	"github.com/pixgate/pixgate/docs/clients/go/pixgate"
)

func main() {
	if err := run(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "go client flow:", err)
		os.Exit(1)
	}
	fmt.Println("go client flow: ok")
}

// flow carries the clients and the sandbox the payer pays through.
type flow struct {
	v1, v2  *pixgate.ClientWithResponses
	sandbox string
	token   string
}

func run(ctx context.Context) error {
	base, key := os.Getenv("PIXGATE_URL"), os.Getenv("PIXGATE_KEY")
	f := &flow{sandbox: os.Getenv("PIXGATE_SANDBOX_URL")}
	var err error
	f.v1, err = pixgate.NewClientWithResponses(base, pixgate.WithRequestEditorFn(bearer(func() string { return key })))
	if err != nil {
		return err
	}
	f.v2, err = pixgate.NewClientWithResponses(base, pixgate.WithRequestEditorFn(bearer(func() string { return f.token })))
	if err != nil {
		return err
	}
	if err := f.runV1(ctx); err != nil {
		return fmt.Errorf("v1: %w", err)
	}
	publicID, secret, _ := strings.Cut(key, ".")
	if err := f.runV2(ctx, publicID, secret); err != nil {
		return fmt.Errorf("v2: %w", err)
	}
	return nil
}

func (f *flow) runV1(ctx context.Context) error {
	bal, err := f.v1.GetBalanceWithResponse(ctx)
	if err := expect(bal, err, http.StatusOK); err != nil {
		return fmt.Errorf("balance: %w", err)
	}
	if err := same("available_balance", bal.JSON200.AvailableBalance, 197143.76); err != nil {
		return err
	}
	ext := "go-client-charge"
	ch, err := f.v1.CreateChargeWithResponse(ctx, pixgate.ChargeRequest{Amount: 12345.67, ExternalId: &ext,
		Payer: pixgate.Payer{Name: "Fulano de Tal", Document: "52998224725"}})
	if err := expect(ch, err, http.StatusCreated); err != nil {
		return fmt.Errorf("create charge: %w", err)
	}
	c := ch.JSON201
	if err := all(same("amount", c.Amount, 12345.67), same("fee", c.Fee, 185.19), same("net_amount", c.NetAmount, 12160.48)); err != nil {
		return err
	}
	if err := f.pay(ctx, *c.PixId); err != nil {
		return err
	}
	if err := eventually("charge PAID", func() (bool, error) {
		got, err := f.v1.GetChargeWithResponse(ctx, ext)
		if err := expect(got, err, http.StatusOK); err != nil {
			return false, err
		}
		return got.JSON200.Status == pixgate.ChargeStatusPAID, nil
	}); err != nil {
		return err
	}
	perPage, paid := pixgate.PerPage(1), pixgate.ChargeStatusPAID
	list, err := f.v1.ListChargesWithResponse(ctx, &pixgate.ListChargesParams{PerPage: &perPage, Status: &paid})
	if err := expect(list, err, http.StatusOK); err != nil {
		return fmt.Errorf("list charges: %w", err)
	}
	if len(list.JSON200.Data) != 1 || list.JSON200.Data[0].Id != c.Id {
		return fmt.Errorf("list charges: want the paid charge %s, got %s", c.Id, list.Body)
	}
	w, err := f.v1.CreateWithdrawalWithResponse(ctx, pixgate.WithdrawalRequest{Amount: 1000.01,
		CreditParty: pixgate.CreditParty{Name: "Beltrano", KeyType: "EMAIL", Key: "beltrano@example.com", TaxId: "52998224725"}})
	if err := expect(w, err, http.StatusCreated); err != nil {
		return fmt.Errorf("create withdrawal: %w", err)
	}
	if err := all(same("withdrawal amount", w.JSON201.Amount, 1000.01), same("withdrawal total", w.JSON201.Total, 1000.51)); err != nil {
		return err
	}
	bal, err = f.v1.GetBalanceWithResponse(ctx)
	if err := expect(bal, err, http.StatusOK); err != nil {
		return fmt.Errorf("balance: %w", err)
	}
	// 197,143.76 + 12,160.48 − 1,000.51
	return same("available_balance after", bal.JSON200.AvailableBalance, 208303.73)
}

func (f *flow) runV2(ctx context.Context, publicID, secret string) error {
	wrong := "sk_wrong"
	refused, err := f.v2.CreateAccessTokenWithResponse(ctx, pixgate.TokenRequest{PublicId: &publicID, Secret: &wrong})
	if err := expect(refused, err, http.StatusUnauthorized); err != nil {
		return fmt.Errorf("token with a wrong secret: %w", err)
	}
	if refused.JSON401.Error != pixgate.TokenErrorError("invalid_client") || refused.JSON401.ErrorDescription == "" {
		return fmt.Errorf("token error: want error invalid_client with a description, got %s", refused.Body)
	}
	tok, err := f.v2.CreateAccessTokenWithResponse(ctx, pixgate.TokenRequest{PublicId: &publicID, Secret: &secret})
	if err := expect(tok, err, http.StatusOK); err != nil {
		return fmt.Errorf("token: %w", err)
	}
	f.token = tok.JSON200.AccessToken
	bal, err := f.v2.GetV2BalanceWithResponse(ctx)
	if err := expect(bal, err, http.StatusOK); err != nil {
		return fmt.Errorf("balance: %w", err)
	}
	if err := same("v2 available", bal.JSON200.Available, 208303.73); err != nil {
		return err
	}
	noDocument, err := f.v2.CreateV2ChargeWithResponse(ctx, pixgate.ChargeRequest{Amount: 15.5, Payer: pixgate.Payer{Name: "Fulano de Tal"}})
	if err := expect(noDocument, err, http.StatusUnprocessableEntity); err != nil {
		return fmt.Errorf("charge without a document: %w", err)
	}
	if e := noDocument.JSON422.Errors; e == nil || len((*e)["payer.document"]) == 0 || !strings.HasPrefix(noDocument.JSON422.Message, "payer.document ") {
		return fmt.Errorf("charge without a document: payer.document not named: %s", noDocument.Body)
	}
	qr, err := f.v2.CreateV2ChargeWithResponse(ctx, pixgate.ChargeRequest{Amount: 15.5,
		Payer: pixgate.Payer{Name: "Fulano de Tal", Document: "52998224725"}})
	if err := expect(qr, err, http.StatusOK); err != nil {
		return fmt.Errorf("qrcode: %w", err)
	}
	pixID := qr.JSON200.TransactionId
	if err := all(same("qrcode amount", qr.JSON200.Amount, 15.5), f.pay(ctx, pixID)); err != nil {
		return err
	}
	if err := eventually("charge PAID", func() (bool, error) {
		tx, err := f.consult(ctx, pixID)
		return err == nil && tx.JSON200.RequestBody.Status == pixgate.V2TransactionEnvelopeRequestBodyStatusPAID, err
	}); err != nil {
		return err
	}
	refund, err := f.v2.CreateV2RefundWithResponse(ctx, pixgate.V2RefundRequest{PixId: pixID, Amount: 0.1})
	if err := expect(refund, err, http.StatusOK); err != nil {
		return fmt.Errorf("refund: %w", err)
	}
	tx, err := f.consult(ctx, refund.JSON200.TransactionId)
	if err != nil {
		return err
	}
	if err := all(same("refund amount", tx.JSON200.RequestBody.Amount, 0.1),
		equal("refund pix_id", deref(tx.JSON200.RequestBody.PixId), pixID)); err != nil {
		return err
	}
	pay, err := f.v2.CreateV2PaymentWithResponse(ctx, pixgate.WithdrawalRequest{Amount: 0.07,
		CreditParty: pixgate.CreditParty{Name: "Beltrano", KeyType: "EVP", Key: "123e4567-e12b-12d1-a456-426655440000", TaxId: "11222333000181"}})
	if err := expect(pay, err, http.StatusOK); err != nil {
		return fmt.Errorf("payment: %w", err)
	}
	tx, err = f.consult(ctx, pay.JSON200.TransactionId)
	if err != nil {
		return err
	}
	return same("payment amount", tx.JSON200.RequestBody.Amount, 0.07)
}

func (f *flow) consult(ctx context.Context, pixID string) (*pixgate.ConsultTransactionResponse, error) {
	tx, err := f.v2.ConsultTransactionWithResponse(ctx, pixgate.ConsultRequest{PixId: pixID})
	if err := expect(tx, err, http.StatusOK); err != nil {
		return nil, fmt.Errorf("consult %s: %w", pixID, err)
	}
	return tx, nil
}

// pay has the sandbox provider pay a charge, as the payer's bank would.
func (f *flow) pay(ctx context.Context, pixID string) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, f.sandbox+"/sandbox/charges/"+pixID+"/pay", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("sandbox pay: %w", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("sandbox pay: %s", resp.Status)
	}
	return nil
}

func bearer(token func() string) pixgate.RequestEditorFn {
	return func(_ context.Context, req *http.Request) error {
		req.Header.Set("Authorization", "Bearer "+token())
		return nil
	}
}

// response is what every generated XxxResponse offers.
type response interface {
	StatusCode() int
}

func expect(r response, err error, status int) error {
	if err != nil {
		return err
	}
	if r.StatusCode() != status {
		return fmt.Errorf("status %d, want %d: %s", r.StatusCode(), status, bodyOf(r))
	}
	return nil
}

// bodyOf is the Body field every generated response has.
func bodyOf(r response) string {
	if v := reflect.ValueOf(r); v.Kind() == reflect.Pointer && !v.IsNil() {
		if b := v.Elem().FieldByName("Body"); b.IsValid() {
			return string(b.Bytes())
		}
	}
	return fmt.Sprintf("%+v", r)
}

// same checks an amount exactly: the double the client read must be the
// double of the decimal written, and print as it.
func same(what string, got pixgate.Amount, want float64) error {
	if got != want || fmt.Sprintf("%.2f", got) != fmt.Sprintf("%.2f", want) {
		return fmt.Errorf("%s = %v, want exactly %.2f", what, got, want)
	}
	return nil
}

func equal(what, got, want string) error {
	if got != want {
		return fmt.Errorf("%s = %q, want %q", what, got, want)
	}
	return nil
}

func all(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func eventually(what string, cond func() (bool, error)) error {
	deadline := time.Now().Add(20 * time.Second)
	for {
		ok, err := cond()
		if err != nil || ok {
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("not within 20s: %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
