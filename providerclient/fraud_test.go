package providerclient

import (
	"errors"
	"fmt"
	"testing"
)

// Only a provider's refusal whose words say the key is marked for fraud
// is one.
func TestKeyFraudMarked(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{&Error{Kind: ErrRejected, Message: "the PIX key is marked for fraud in the directory (DICT)"}, true},
		{fmt.Errorf("send: %w", &Error{Kind: ErrRejected, Message: "Chave marcada por FRAUDE"}), true},
		{&Error{Kind: ErrRejected, Message: "insufficient balance"}, false},
		{&Error{Kind: ErrUnavailable, Message: "fraud check service down"}, false},
		{errors.New("fraud"), false},
		{nil, false},
	} {
		if got := KeyFraudMarked(tc.err); got != tc.want {
			t.Errorf("KeyFraudMarked(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}
