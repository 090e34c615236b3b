// Package money is PixGate's representation of Brazilian reais: an integer
// number of centavos. Amounts never pass through float64; JSON numbers are
// parsed from their decimal text and rendered with exactly two decimals.
package money

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Money is an amount in centavos (1/100 of a real).
type Money int64

// MaxDigits bounds the integer part of a parsed amount so that any accepted
// value, and any sum of a few of them, fits comfortably in an int64.
const maxIntegerDigits = 13

// Parse errors. Callers show them to integrators, so they read as the end of
// the sentence "amount ...".
var (
	ErrNotANumber      = errors.New("must be a number")
	ErrExponent        = errors.New("must be written without an exponent")
	ErrTooManyDecimals = errors.New("must have at most 2 decimal places")
	ErrTooLarge        = errors.New("is too large")
	ErrNotPositive     = errors.New("must be greater than zero")
)

// Parse reads a decimal amount in reais ("15", "15.5", "15.50", "-3.20")
// exactly. It refuses exponents, more than two significant decimal places
// ("15.505"), and anything that is not a plain decimal number. Trailing zeros
// beyond the centavo ("15.500") are exact and therefore accepted.
func Parse(s string) (Money, error) {
	if s == "" {
		return 0, ErrNotANumber
	}
	neg := false
	if s[0] == '-' {
		neg, s = true, s[1:]
	}
	if strings.ContainsAny(s, "eE") {
		return 0, ErrExponent
	}
	intPart, frac, hasDot := strings.Cut(s, ".")
	if intPart == "" || !allDigits(intPart) || (hasDot && (frac == "" || !allDigits(frac))) {
		return 0, ErrNotANumber
	}
	intPart = strings.TrimLeft(intPart, "0")
	if len(intPart) > maxIntegerDigits {
		return 0, ErrTooLarge
	}
	frac = strings.TrimRight(frac, "0")
	if len(frac) > 2 {
		return 0, ErrTooManyDecimals
	}
	frac += strings.Repeat("0", 2-len(frac))
	cents, err := strconv.ParseInt(intPart+frac, 10, 64)
	if err != nil {
		return 0, ErrNotANumber
	}
	if neg {
		cents = -cents
	}
	return Money(cents), nil
}

// ParseAmount parses a JSON value that must be a positive amount: a JSON
// number (not a string) with at most two decimal places, greater than zero.
func ParseAmount(raw []byte) (Money, error) {
	s := strings.TrimSpace(string(raw))
	if s == "" || s == "null" || s[0] == '"' || s[0] == '{' || s[0] == '[' || s == "true" || s == "false" {
		return 0, ErrNotANumber
	}
	m, err := Parse(s)
	if err != nil {
		return 0, err
	}
	if m <= 0 {
		return 0, ErrNotPositive
	}
	return m, nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// FromReais builds an amount from whole reais and centavos; for tests and
// constants.
func FromReais(reais, centavos int64) Money { return Money(reais*100 + centavos) }

// String renders the amount with two decimals and no currency symbol
// ("15.50", "-0.05").
func (m Money) String() string {
	v := int64(m)
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	return fmt.Sprintf("%s%d.%02d", sign, v/100, v%100)
}

// MarshalJSON renders the amount as a JSON number with two decimals.
func (m Money) MarshalJSON() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalJSON reads a JSON number exactly. Zero and negative values are
// accepted here (balances can be zero); request validation uses ParseAmount.
func (m *Money) UnmarshalJSON(b []byte) error {
	s := strings.TrimSpace(string(b))
	if s == "" || s[0] == '"' {
		return ErrNotANumber
	}
	v, err := Parse(s)
	if err != nil {
		return err
	}
	*m = v
	return nil
}
