package money

import (
	"math"
	"testing"
)

func TestFeeCompute(t *testing.T) {
	tests := []struct {
		name   string
		rule   FeeRule
		amount Money
		want   Money
	}{
		{"1.5% of 100.00", Percent(15000), 10000, 150},
		{"1.5% of 10.01 = 15.015c rounds down", Percent(15000), 1001, 15},
		{"1.5% of 10.10 = 15.15c rounds down", Percent(15000), 1010, 15},
		{"1.5% of 0.30 = 0.45c rounds down", Percent(15000), 30, 0},
		{"1.5% of 0.70 = 1.05c rounds down", Percent(15000), 70, 1},
		{"5% of 0.10 = 0.5c rounds half up", Percent(50000), 10, 1},
		{"5% of 0.30 = 1.5c rounds half up", Percent(50000), 30, 2},
		{"2.5% of 0.01 = 0.025c rounds down", Percent(25000), 1, 0},
		{"2.5% of 0.02 = 0.05c rounds down", Percent(25000), 2, 0},
		{"50% of 0.01 = 0.5c rounds half up", Percent(500000), 1, 1},
		{"0.99% of 15.50 = 15.345c", Percent(9900), 1550, 15},
		{"1.2345% of 1000.00", Percent(12345), 100000, 1235}, // 1234.5c rounds up
		{"100% of 12.34", Percent(1000000), 1234, 1234},
		{"0% of 12.34", Percent(0), 1234, 0},
		{"fixed 0.50", Fixed(50), 100, 50},
		{"fixed 0.50 on a big amount", Fixed(50), 1_000_000_00, 50},
		{"fixed zero", Fixed(0), 100, 0},
		{"no 128-bit overflow", Percent(1000000), Money(math.MaxInt64 / 2), Money(math.MaxInt64 / 2)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.rule.Compute(tt.amount); got != tt.want {
				t.Fatalf("%v.Compute(%v) = %v, want %v", tt.rule, tt.amount, got, tt.want)
			}
		})
	}
}

func TestParseFeeRule(t *testing.T) {
	good := []struct {
		in        string
		want      FeeRule
		wantValue string
	}{
		{"percent:1.5", Percent(15000), "1.5"},
		{"percent:2", Percent(20000), "2"},
		{"PERCENT:0.99", Percent(9900), "0.99"},
		{"percent:1.2345", Percent(12345), "1.2345"},
		{"percent:100", Percent(1000000), "100"},
		{"percent:0", Percent(0), "0"},
		{"fixed:0.50", Fixed(50), "0.50"},
		{"fixed:2", Fixed(200), "2.00"},
		{"fixed:0", Fixed(0), "0.00"},
	}
	for _, tt := range good {
		got, err := ParseFeeRule(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParseFeeRule(%q) = %+v, %v; want %+v", tt.in, got, err, tt.want)
			continue
		}
		if got.Value() != tt.wantValue {
			t.Errorf("%q.Value() = %q, want %q", tt.in, got.Value(), tt.wantValue)
		}
	}
	for _, bad := range []string{"", "percent", "percent:", "percent:abc", "percent:1.23456", "percent:101", "percent:-1",
		"fixed:-0.50", "fixed:0.505", "fixed:1e2", "flat:1", "percent:1e1", "percent:.5"} {
		if r, err := ParseFeeRule(bad); err == nil {
			t.Errorf("ParseFeeRule(%q) = %+v, want error", bad, r)
		}
	}
}

func TestFeeNote(t *testing.T) {
	if got := Percent(15000).Note("cashin"); got == "" || got[:4] != "1.5%" {
		t.Errorf("cash-in note = %q", got)
	}
	if got := Fixed(50).Note("cashout"); got != "R$ 0.50 debited on top of each amount sent" {
		t.Errorf("cash-out note = %q", got)
	}
}
