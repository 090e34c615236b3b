package money

import (
	"math/big"
	"testing"
)

// FuzzParse: Parse never panics, and what it accepts is exactly the decimal
// written, in centavos: its rendering parses back to the same amount and
// equals the input as a rational number.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"15", "15.5", "15.50", "-3.20", "15.505", "15.500", "1e2", "0.001", "-0", "00000000000001.10", "9999999999999.99", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := Parse(s)
		if err != nil {
			return
		}
		again, err := Parse(m.String())
		if err != nil || again != m {
			t.Fatalf("Parse(%q) = %v, whose rendering %q parses as %v, %v", s, m, m.String(), again, err)
		}
		want, ok := new(big.Rat).SetString(s)
		if !ok || want.Cmp(big.NewRat(int64(m), 100)) != 0 {
			t.Fatalf("Parse(%q) = %v centavos, not the number written", s, int64(m))
		}
	})
}

// FuzzParseAmount: whatever JSON value is sent as an amount, an accepted one
// is a plain positive number of centavos.
func FuzzParseAmount(f *testing.F) {
	for _, s := range []string{"15.50", `"15.50"`, "1e309", "-0", "1e-100000", "0.001", "99999999999999999999", "null", "[1]", "0"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		m, err := ParseAmount(raw)
		if err != nil {
			return
		}
		if m <= 0 {
			t.Fatalf("ParseAmount(%q) = %v", raw, m)
		}
		if p, err := Parse(m.String()); err != nil || p != m {
			t.Fatalf("ParseAmount(%q) = %v does not round-trip", raw, m)
		}
	})
}
