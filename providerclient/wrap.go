package providerclient

// Operation names, used in errors and metrics.
const (
	OpCharge  = "create charge"
	OpPayout  = "send pix"
	OpRefund  = "create refund"
	OpRead    = "read transaction"
	OpBalance = "balance"
	OpToken   = "fetch token"
	OpWebhook = "register webhook"

	OpReadInfraction   = "read infraction"
	OpListInfractions  = "list infractions"
	OpDefendInfraction = "defend infraction"
	OpLookupKey        = "look up key"

	OpCreateRecurrence = "create recurrence"
	OpReadRecurrence   = "read recurrence"
	OpCancelRecurrence = "cancel recurrence"
	OpSendCycle        = "send cycle"
	OpReadCycle        = "read cycle"
	OpRetryCycle       = "retry cycle"
	OpCancelCycle      = "cancel cycle"
)

// Wrap gives a connector the layers every provider gets: retries around a
// circuit breaker around (with cfg.Metrics) metrics and (with a tracer
// provider installed) a span per call around c. Build one per
// provider and process and share it, so that API and worker code see the
// same breaker.
func Wrap(c Connector, cfg Config) Connector {
	if cfg.Metrics != nil || tracing() {
		c = WithMetrics(c, cfg.Metrics)
	}
	return WithRetry(WithBreaker(c, cfg), cfg)
}
