package api

import (
	"context"
	"net/mail"
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/storage/money"
)

// Field limits: the provider contract's, on both surfaces.
const (
	maxNameLen        = contract.MaxNameLen
	maxShortTextLen   = contract.MaxShortTextLen // payerQuestion, description
	maxExternalIDLen  = contract.MaxExternalIDLen
	maxPostbackURLLen = contract.MaxPostbackURLLen
	maxEmailLen       = contract.MaxEmailLen
	// A charge's validity, in seconds, when the request sets one
	// (expiration): at least a minute, at most a week (PixGate's choice).
	minChargeExpiration = 60
	maxChargeExpiration = 7 * 24 * 3600
)

// amount reads a required amount exactly: a JSON number (never a string,
// never through float64) with at most two decimals, above zero and at most
// limit.
func (o object) amount(name string, limit money.Money) (money.Money, bool) {
	r, ok := o.raw(name)
	if !ok {
		o.errs.add(o.path(name), "is required")
		return 0, false
	}
	if r[0] == '"' {
		o.errs.add(o.path(name), "must be a number, not a string (send 15.50, not \"15.50\")")
		return 0, false
	}
	m, err := money.ParseAmount(r)
	if err != nil {
		o.errs.add(o.path(name), "%s", err.Error())
		return 0, false
	}
	if m > limit {
		o.errs.add(o.path(name), "must not exceed %s", limit)
		return 0, false
	}
	return m, true
}

// expiration reads a charge's optional validity: a JSON integer of
// seconds within [minChargeExpiration, maxChargeExpiration].
func (o object) expiration() *int {
	r, ok := o.raw("expiration")
	if !ok {
		return nil
	}
	n, err := strconv.Atoi(string(r))
	if err != nil || n < minChargeExpiration || n > maxChargeExpiration {
		o.errs.add(o.path("expiration"), "must be a whole number of seconds from %d to %d", minChargeExpiration, maxChargeExpiration)
		return nil
	}
	return &n
}

// text reads a single-line text member: trimmed, without control
// characters, line separators or bidirectional overrides (which make text
// read differently from what it is), at most maxLen characters; required
// ones must not be blank.
func (o object) text(name string, maxLen int, required bool) (string, bool) {
	var (
		s  string
		ok bool
	)
	if required {
		s, ok = o.requiredStr(name)
	} else {
		s, ok = o.str(name)
	}
	if !ok {
		return "", false
	}
	s = strings.TrimSpace(s)
	switch {
	case s == "" && required:
		o.errs.add(o.path(name), "must not be blank")
		return "", false
	case utf8.RuneCountInString(s) > maxLen:
		o.errs.add(o.path(name), "must be at most %d characters", maxLen)
		return "", false
	case strings.IndexFunc(s, unicode.IsControl) >= 0:
		o.errs.add(o.path(name), "must not contain control characters")
		return "", false
	case strings.IndexFunc(s, isSeparatorOrBidi) >= 0:
		o.errs.add(o.path(name), "must not contain line separators or bidirectional formatting characters")
		return "", false
	}
	return s, true
}

// name reads a person's or company's name. Names reach the provider as the
// recipient's name and the payer's bank app shows them: besides what text
// refuses, no invisible formatting characters at all (zero-width
// characters, byte order marks, tag characters).
func (o object) name(field string) string {
	s, ok := o.text(field, maxNameLen, true)
	if ok && strings.IndexFunc(s, isFormat) >= 0 {
		o.errs.add(o.path(field), "must not contain invisible formatting characters (zero-width, BOM, tags)")
		return ""
	}
	return s
}

// isSeparatorOrBidi: U+2028/U+2029 and the bidirectional controls
// (embeddings, overrides, isolates, marks).
func isSeparatorOrBidi(r rune) bool {
	return unicode.In(r, unicode.Zl, unicode.Zp) || unicode.Is(unicode.Bidi_Control, r)
}

// isFormat: Unicode's format characters (Cf), which render as nothing.
func isFormat(r rune) bool { return unicode.Is(unicode.Cf, r) }

// optionalText is text for an optional member, nil when absent or blank.
// Besides what text refuses, it refuses invisible characters outside emoji
// (see hiddenCharacter).
func (o object) optionalText(name string, maxLen int) *string {
	s, ok := o.text(name, maxLen, false)
	if !ok || s == "" {
		return nil
	}
	if hiddenCharacter(s) {
		o.errs.add(o.path(name), "must not contain invisible characters (zero-width, BOM, tags) except those that join emoji")
		return nil
	}
	return &s
}

// externalID reads the integrator's own reference: 1 to 64 printable
// characters without whitespace, taken as sent. It is the idempotency key.
func (o object) externalID() (*string, bool) {
	s, ok := o.str("external_id")
	if !ok {
		return nil, !o.errs.has(o.path("external_id"))
	}
	n := utf8.RuneCountInString(s)
	bad := func(r rune) bool { return !unicode.IsGraphic(r) || unicode.IsSpace(r) }
	if n == 0 || n > maxExternalIDLen || strings.IndexFunc(s, bad) >= 0 {
		o.errs.add(o.path("external_id"), "must be 1 to %d printable characters without spaces", maxExternalIDLen)
		return nil, false
	}
	return &s, true
}

// postbackURL reads an optional callback URL: absolute, https (or http when
// allowed, for development), with a host and no credentials, and accepted
// by policy (the worker's delivery rules, see Config.PostbackURLPolicy)
// when there is one. The answer does not say why the policy refused: that
// an internal name exists, or what it resolves to, is not the caller's
// business.
func (o object) postbackURL(allowHTTP bool, policy func(context.Context, string) error) *string {
	s, ok := o.str("postbackUrl")
	if !ok {
		return nil
	}
	s = strings.TrimSpace(s)
	want := "must be an absolute https URL"
	if allowHTTP {
		want = "must be an absolute http or https URL"
	}
	u, err := url.Parse(s)
	switch {
	case len(s) > maxPostbackURLLen:
		o.errs.add(o.path("postbackUrl"), "must be at most %d characters", maxPostbackURLLen)
	case err != nil || u.Host == "" || u.Hostname() == "" || strings.ContainsFunc(s, unicode.IsSpace),
		u.Scheme != "https" && !(allowHTTP && u.Scheme == "http"):
		o.errs.add(o.path("postbackUrl"), "%s", want)
	case u.User != nil:
		o.errs.add(o.path("postbackUrl"), "must not contain credentials")
	case policy != nil && policy(o.ctx, s) != nil:
		o.errs.add(o.path("postbackUrl"), "must name a public host that resolves (not loopback, private, link-local or metadata)")
	default:
		return &s
	}
	return nil
}

// email reads an optional e-mail address (a bare address, no display name).
func (o object) email(name string) *string {
	s := o.optionalText(name, maxEmailLen)
	if s == nil {
		return nil
	}
	a, err := mail.ParseAddress(*s)
	if err != nil || a.Address != *s || !strings.Contains((*s)[strings.LastIndexByte(*s, '@'):], ".") {
		o.errs.add(o.path(name), "must be a valid email address")
		return nil
	}
	return s
}
