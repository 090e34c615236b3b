package pixgate

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestParseAmount(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want Amount
		err  bool
	}{
		{"15.50", 1550, false},
		{"15.5", 1550, false},
		{"15", 1500, false},
		{"0.07", 7, false},
		{"197143.76", 19714376, false},
		{"-0.10", -10, false},
		{"9999999999999.99", 999999999999999, false},
		{"1.234", 0, true},
		{"1e3", 0, true},
		{"15.", 0, true},
		{".5", 0, true},
		{"", 0, true},
		{"1,50", 0, true},
		{"NaN", 0, true},
		{"10000000000000000", 0, true},
	} {
		got, err := ParseAmount(tt.in)
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("ParseAmount(%q) = %d, %v", tt.in, got, err)
		}
		if err != nil && !errors.Is(err, ErrAmount) {
			t.Errorf("ParseAmount(%q): %v is not ErrAmount", tt.in, err)
		}
	}
}

// Amounts go through JSON as numbers with two decimals and come back the
// same, to the centavo: 197143.76 is what a float32 reads as 197143.77.
func TestAmountJSON(t *testing.T) {
	for _, a := range []Amount{0, 7, 10, 1550, 19714376, 999999999999999, -10} {
		b, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		var back Amount
		if err := json.Unmarshal(b, &back); err != nil || back != a {
			t.Errorf("%s read back as %s (%v)", b, back, err)
		}
	}
	var v struct{ A, B, C Amount }
	if err := json.Unmarshal([]byte(`{"A": 197143.76, "B": "15.50", "C": null}`), &v); err != nil || v.A != 19714376 || v.B != 1550 || v.C != 0 {
		t.Fatalf("%+v, %v", v, err)
	}
	if b, _ := json.Marshal(struct{ A Amount }{Reais(15, 5)}); string(b) != `{"A":15.05}` {
		t.Fatalf("marshal: %s", b)
	}
	if err := json.Unmarshal([]byte(`{"A": 1.005}`), &v); err == nil {
		t.Fatal("three decimals read")
	}
}
