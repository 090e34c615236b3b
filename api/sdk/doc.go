// Package pixgate is a Go client of PixGate's two HTTP surfaces, v1
// (/api/v1, the API key as a bearer token) and v2 (/v2, the provider
// family's contract with OAuth client-credentials access tokens), and a
// verifier of the postbacks PixGate sends. Its requests are built by a
// client that oapi-codegen generates from PixGate's docs/openapi.yaml
// (internal/gen); the rest, below, is its own.
//
//	import pixgate "github.com/pixgate/pixgate/api/sdk"
//
//	c, err := pixgate.New(pixgate.Config{BaseURL: "https://pix.example.com", APIKey: key})
//	ch, err := c.CreateCharge(ctx, pixgate.ChargeRequest{Amount: pixgate.MustAmount("15.50"),
//		Payer: pixgate.Payer{Name: "Fulano de Tal", Document: "52998224725"}})
//
// What it does for the caller:
//
//   - Money is Amount, integer centavos, read from and written to JSON
//     exactly (PixGate's amounts are JSON numbers with two decimals).
//   - Every create carries an external_id, PixGate's idempotency key: when
//     the request has none, the client makes one before the first attempt,
//     so a retry can never create a second charge, withdrawal or refund.
//   - Requests answered 429, 503 or 504, or lost on the network, are sent
//     again with exponential backoff and jitter, waiting what Retry-After
//     says when the answer has one (Config.MaxAttempts, MaxRetryWait).
//   - v2 calls buy an access token with the key, keep it until shortly
//     before it expires, share it between goroutines, and buy a new one
//     once when PixGate answers 401 to it.
//   - Refusals are *Error, with PixGate's code, message, the field errors
//     and the request id to quote.
//   - VerifyPostback checks a postback's Standard Webhooks signature;
//     ParsePostback reads its body; PostbackHandler does both for an
//     http.Handler.
package pixgate
