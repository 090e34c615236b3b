package sandbox

import (
	"crypto/rand"
	mrand "math/rand/v2"
	"time"
)

const lowerAlnum = "abcdefghijklmnopqrstuvwxyz0123456789"

// sandboxISPB is the participant code the sandbox writes in endToEndIds.
const sandboxISPB = "99999999"

func randomAlnum(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = lowerAlnum[mrand.IntN(len(lowerAlnum))]
	}
	return string(b)
}

// newTransactionID returns a provider transactionId: 32 lowercase letters
// and digits.
func newTransactionID() string { return randomAlnum(32) }

// newEndToEndID returns a 32-character endToEndId: prefix ('E' for payments
// and received PIX, 'D' for refund returns), the 8-digit ISPB, the UTC
// minute as yyyyMMddHHmm and 11 letters or digits.
func newEndToEndID(prefix byte, at time.Time) string {
	return string(prefix) + sandboxISPB + at.UTC().Format("200601021504") + randomAlnum(11)
}

// newAccessToken returns an opaque access token with 128 bits of entropy.
func newAccessToken() string { return rand.Text() }
