package pixgate

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Amount is an amount of money in centavos. PixGate writes amounts as JSON
// numbers in reais with two decimals (15.50); an Amount reads them exactly,
// from their text, never through a float, and writes them the same way.
type Amount int64

// ErrAmount is returned for text that is not an amount of reais with at
// most two decimals.
var ErrAmount = errors.New("pixgate: not an amount of reais with at most two decimals")

// ParseAmount reads reais written as PixGate does ("15.50", "15.5", "15",
// "-0.07"): digits, optionally a point and one or two decimals. Exponents,
// more decimals and anything else are refused.
func ParseAmount(s string) (Amount, error) {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	whole, frac, hasPoint := strings.Cut(s, ".")
	if whole == "" || !digits(whole) || (hasPoint && (frac == "" || len(frac) > 2 || !digits(frac))) || len(whole) > 15 {
		return 0, fmt.Errorf("%w: %q", ErrAmount, s)
	}
	reais, err := strconv.ParseInt(whole, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%w: %q", ErrAmount, s)
	}
	cents := int64(0)
	if frac != "" {
		cents, _ = strconv.ParseInt((frac + "0")[:2], 10, 64)
	}
	a := Amount(reais*100 + cents)
	if neg {
		a = -a
	}
	return a, nil
}

// MustAmount is ParseAmount for constants; it panics on bad text.
func MustAmount(s string) Amount {
	a, err := ParseAmount(s)
	if err != nil {
		panic(err)
	}
	return a
}

// Reais builds an Amount from whole reais and centavos: Reais(15, 50) is
// R$ 15.50.
func Reais(reais, centavos int64) Amount { return Amount(reais*100 + centavos) }

// String writes the amount in reais with two decimals: "15.50".
func (a Amount) String() string {
	sign, v := "", int64(a)
	if v < 0 {
		sign, v = "-", -v
	}
	return fmt.Sprintf("%s%d.%02d", sign, v/100, v%100)
}

// MarshalJSON writes the amount as a JSON number with two decimals.
func (a Amount) MarshalJSON() ([]byte, error) { return []byte(a.String()), nil }

// UnmarshalJSON reads a JSON number exactly. A string holding a number is
// accepted too: some servers of the provider family send amounts that way.
func (a *Amount) UnmarshalJSON(b []byte) error {
	s := strings.TrimSpace(string(b))
	if s == "null" {
		return nil
	}
	if unq, err := strconv.Unquote(s); err == nil {
		s = unq
	}
	v, err := ParseAmount(s)
	if err != nil {
		return err
	}
	*a = v
	return nil
}

func digits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}
