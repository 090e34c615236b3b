package load

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// providerPay is the minimal provider: it accepts the payment, answers
// with its transaction id and notifies the payment's settlement at once.
func (b *bare) providerPay(w http.ResponseWriter, r *http.Request) {
	var req struct {
		ExternalID  string `json:"external_id"`
		PostbackURL string `json:"postbackUrl"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	txID := uuid.New().String()
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]string{"transactionId": txID, "status": "PROCESSING"})
	b.inflight.Add(1)
	go func() {
		defer b.inflight.Done()
		body, _ := json.Marshal(map[string]string{"external_id": req.ExternalID, "transactionId": txID, "status": "COMPLETED"})
		if err := b.post(context.Background(), req.PostbackURL, body, nil); err != nil {
			b.notifyFail.CompareAndSwap(nil, err)
		}
	}()
}

// notified is the program's notification server: it commits the
// settlement with its postback row and answers the provider; then the
// signed postback is delivered and its delivery committed.
func (b *bare) notified(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	var n struct {
		ExternalID    uuid.UUID `json:"external_id"`
		TransactionID string    `json:"transactionId"`
		Status        string    `json:"status"`
	}
	if err := json.NewDecoder(r.Body).Decode(&n); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	pbID := uuid.New()
	pb, _ := json.Marshal(map[string]any{"requestBody": map[string]any{"id": n.ExternalID, "transactionType": "PAYMENT",
		"transactionId": n.TransactionID, "status": n.Status, "amount": float64(bareAmount) / 100}})
	err := pgx.BeginFunc(ctx, b.pool, func(tx pgx.Tx) error {
		var wallet, amount, fee int64
		if err := tx.QueryRow(ctx, `UPDATE bare_withdrawals SET status = 'COMPLETED', pix_id = $2, updated_at = now()
			WHERE id = $1 AND status = 'PROCESSING' RETURNING wallet_id, amount, fee`, n.ExternalID, n.TransactionID).Scan(&wallet, &amount, &fee); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE bare_wallets SET reserved = reserved - $2 WHERE id = $1`, wallet, amount+fee); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO bare_postings (withdrawal_id, account, amount) VALUES ($1, 'reserved', $2), ($1, 'provider', $3), ($1, 'fees', $4)`,
			n.ExternalID, -(amount + fee), amount, fee); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO bare_postbacks (id, withdrawal_id, body, status) VALUES ($1, $2, $3, 'PENDING')`, pbID, n.ExternalID, pb)
		return err
	})
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusOK)
	b.inflight.Add(1)
	go func() {
		defer b.inflight.Done()
		err := b.deliver(context.Background(), pbID, pb)
		if ch, ok := b.waiting.Load(n.ExternalID); ok {
			ch.(chan error) <- err
		}
	}()
}

// deliver POSTs the postback signed as Standard Webhooks sign, then
// commits its delivery.
func (b *bare) deliver(ctx context.Context, id uuid.UUID, body []byte) error {
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	mac := hmac.New(sha256.New, b.secret)
	mac.Write([]byte(id.String() + "." + ts + "."))
	mac.Write(body)
	h := http.Header{"Webhook-Id": {id.String()}, "Webhook-Timestamp": {ts},
		"Webhook-Signature": {"v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))}}
	if err := b.post(ctx, b.postbacks, body, h); err != nil {
		return fmt.Errorf("postback: %w", err)
	}
	if _, err := b.pool.Exec(ctx, `UPDATE bare_postbacks SET status = 'DELIVERED', delivered_at = now() WHERE id = $1`, id); err != nil {
		return fmt.Errorf("delivery: %w", err)
	}
	return nil
}
