package providerclient

import (
	"errors"
	"strings"
)

// KeyFraudMarkedCode is the code PixGate gives a PIX refused because the
// DICT marks the recipient's key for fraud: the API's 422 of a
// same-holder integrator's withdrawal, and the start of the failure
// reason of a withdrawal a provider refused for it.
const KeyFraudMarkedCode = "key_fraud_marked"

// KeyFraudMarked reports whether err is a provider's refusal of a PIX
// because the DICT marks the recipient's key for fraud. No contract has a
// code of its own for it: the refusal's message says so ("marked for
// fraud", "fraude"), in the provider's words. Such a refusal holds
// whichever provider is asked (the DICT is one for all): a withdrawal it
// refuses is failed, never retried nor moved to another provider.
func KeyFraudMarked(err error) bool {
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, ErrRejected) {
		return false
	}
	return strings.Contains(strings.ToLower(e.Message), "fraud")
}
