package due

import (
	"math/big"

	"github.com/pixgate/pixgate/storage/money"
)

// Each part of a day's amount is computed exactly, as a fraction, and
// rounded once, half up, to the centavo. No part exceeds maxAmount + 1, so
// that none overflows and Validate sees any that would be too large.

// percentPoints is how many hundredths of a percent make a whole: a
// percent Value of 10000 is 100%.
const percentPoints = 10_000

// fixed is a fixed Value as an amount, 0 when negative.
func fixed(v Value) money.Money {
	return min(max(money.Money(v), 0), maxAmount+1)
}

// percentOf is base × v% × num / den, rounded half up; v is in hundredths
// of a percent.
func percentOf(base money.Money, v Value, num, den int64) money.Money {
	return product(percentPoints*den, int64(base), int64(v), num)
}

// product is the product of factors divided by div, rounded half up to a
// whole centavo; 0 when a factor is not positive, and at most
// maxAmount + 1.
func product(div int64, factors ...int64) money.Money {
	n := big.NewInt(1)
	for _, f := range factors {
		if f <= 0 {
			return 0
		}
		n.Mul(n, big.NewInt(f))
	}
	// Half up: floor((2n + div) / 2div).
	d := big.NewInt(div)
	n.Lsh(n, 1).Add(n, d)
	n.Quo(n, d.Lsh(d, 1))
	if n.Cmp(big.NewInt(int64(maxAmount))) > 0 {
		return maxAmount + 1
	}
	return money.Money(n.Int64())
}
