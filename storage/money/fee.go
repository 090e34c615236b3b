package money

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// FeeKind says how a fee is computed.
type FeeKind string

const (
	// FeePercent is a share of the amount, rounded half-up to the centavo.
	FeePercent FeeKind = "percent"
	// FeeFixed is a fixed amount per transaction.
	FeeFixed FeeKind = "fixed"
)

// ppmPerPercent converts a percentage into parts per million of the amount:
// percentages carry up to four decimal places (1.2345%).
const ppmPerPercent = 10_000

// FeeRule is one integrator fee rule: either a percentage of the amount,
// kept in parts per million (1.5% = 15000), or a fixed amount.
type FeeRule struct {
	Kind  FeeKind
	PPM   int64 // for FeePercent: millionths of the amount
	Fixed Money // for FeeFixed
}

// Percent returns a percent rule from a rate in parts per million.
func Percent(ppm int64) FeeRule { return FeeRule{Kind: FeePercent, PPM: ppm} }

// Fixed returns a fixed-amount rule.
func Fixed(m Money) FeeRule { return FeeRule{Kind: FeeFixed, Fixed: m} }

// Compute returns the fee on amount. Percent fees are rounded half-up to the
// centavo: R$ 10.01 at 1.5% is 15.015 centavos, charged as 15.
func (r FeeRule) Compute(amount Money) Money {
	switch r.Kind {
	case FeePercent:
		if amount <= 0 || r.PPM <= 0 {
			return 0
		}
		// amount*ppm can exceed int64 for absurd amounts; do it in 128 bits.
		hi, lo := bits.Mul64(uint64(amount), uint64(r.PPM))
		lo, carry := bits.Add64(lo, 500_000, 0)
		hi += carry
		q, _ := bits.Div64(hi, lo, 1_000_000)
		return Money(q)
	case FeeFixed:
		return r.Fixed
	}
	return 0
}

// Value renders the rule's number as integrators see it: the percentage for
// percent rules ("1.5"), the amount in reais for fixed rules ("0.50").
func (r FeeRule) Value() string {
	if r.Kind == FeeFixed {
		return r.Fixed.String()
	}
	whole, frac := r.PPM/ppmPerPercent, r.PPM%ppmPerPercent
	if frac == 0 {
		return strconv.FormatInt(whole, 10)
	}
	return strings.TrimRight(fmt.Sprintf("%d.%04d", whole, frac), "0")
}

// Note explains the rule in one sentence for the balance endpoint.
func (r FeeRule) Note(kind string) string {
	switch {
	case r.Kind == FeePercent && kind == "cashin":
		return fmt.Sprintf("%s%% of each amount received, rounded half-up to the centavo, deducted before crediting the wallet", r.Value())
	case r.Kind == FeePercent:
		return fmt.Sprintf("%s%% of each amount sent, rounded half-up to the centavo, debited on top of the amount", r.Value())
	case kind == "cashin":
		return fmt.Sprintf("R$ %s deducted from each amount received", r.Value())
	default:
		return fmt.Sprintf("R$ %s debited on top of each amount sent", r.Value())
	}
}

// String is the rule in the CLI's notation: "percent:1.5", "fixed:0.50".
func (r FeeRule) String() string { return string(r.Kind) + ":" + r.Value() }

// ParseFeeRule reads the CLI notation "percent:1.5" or "fixed:0.50".
// Percentages take up to four decimals and may not exceed 100.
func ParseFeeRule(s string) (FeeRule, error) {
	kind, val, ok := strings.Cut(strings.TrimSpace(s), ":")
	if !ok {
		return FeeRule{}, fmt.Errorf("fee %q: want percent:N or fixed:N", s)
	}
	switch FeeKind(strings.ToLower(kind)) {
	case FeePercent:
		ppm, err := parsePercent(val)
		if err != nil {
			return FeeRule{}, fmt.Errorf("fee %q: %w", s, err)
		}
		return Percent(ppm), nil
	case FeeFixed:
		m, err := Parse(val)
		if err != nil {
			return FeeRule{}, fmt.Errorf("fee %q: amount %w", s, err)
		}
		if m < 0 {
			return FeeRule{}, fmt.Errorf("fee %q: amount must not be negative", s)
		}
		return Fixed(m), nil
	}
	return FeeRule{}, fmt.Errorf("fee %q: kind must be percent or fixed", s)
}

func parsePercent(s string) (int64, error) {
	intPart, frac, hasDot := strings.Cut(s, ".")
	if intPart == "" || !allDigits(intPart) || (hasDot && (frac == "" || !allDigits(frac))) || len(intPart) > 3 {
		return 0, errors.New("percentage must be a plain decimal number")
	}
	frac = strings.TrimRight(frac, "0")
	if len(frac) > 4 {
		return 0, errors.New("percentage takes at most 4 decimal places")
	}
	frac += strings.Repeat("0", 4-len(frac))
	ppm, _ := strconv.ParseInt(intPart+frac, 10, 64)
	if ppm > 100*ppmPerPercent {
		return 0, errors.New("percentage must not exceed 100")
	}
	return ppm, nil
}

// FeeView is a rule as integrators see it in JSON: {"type", "value", "note"},
// value being a JSON number (the percentage, or the amount in reais).
type FeeView struct {
	Type  string      `json:"type"`
	Value json.Number `json:"value"`
	Note  string      `json:"note"`
}

// View renders the rule for the "cashin" or "cashout" side.
func (r FeeRule) View(side string) FeeView {
	return FeeView{Type: string(r.Kind), Value: json.Number(r.Value()), Note: r.Note(side)}
}
