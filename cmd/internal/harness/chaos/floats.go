package chaos

import (
	"context"
	"encoding/json"
	"fmt"
)

// The float check: each provider's float account (the money PixGate's
// ledger expects that provider to hold) equals the sandbox's balance, less
// what the sandbox held before PixGate's first transaction. pixgate
// provider balance reads both at the start of the run, before the load,
// and again after the drain: the difference must not have moved by a
// centavo.

// floatReading is one provider's line of pixgate provider balance, in
// centavos: what it reports holding (available plus pending) and its float
// account.
type floatReading struct {
	provider        string
	reported, float int64
	readable        bool   // reported was read
	err             string // why not
}

// floats runs pixgate provider balance --json. The command exits 1 when a
// provider's balance cannot be read, and still prints every provider.
func (c *cluster) floats(ctx context.Context) ([]floatReading, error) {
	out, cmdErr := c.pixgate(ctx, "provider", "balance", "--json")
	var v struct {
		Providers []struct {
			Provider string       `json:"provider"`
			Reported *json.Number `json:"reported"`
			Float    json.Number  `json:"float"`
			Error    string       `json:"error"`
		} `json:"providers"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		if cmdErr != nil {
			return nil, cmdErr
		}
		return nil, fmt.Errorf("pixgate provider balance: %w", err)
	}
	readings := make([]floatReading, 0, len(v.Providers))
	for _, p := range v.Providers {
		r := floatReading{provider: p.Provider, float: centavos(p.Float), err: p.Error}
		if p.Reported != nil {
			r.reported, r.readable = centavos(*p.Reported), true
		}
		readings = append(readings, r)
	}
	return readings, nil
}

// bookHeldBalances tells the ledger, once, what each provider's account
// held before PixGate's first transaction, as docs/operations.md tells an
// operator to (pixgate provider adjust, no day): from then on each float
// equals its provider's balance, which pixgate audit --providers checks.
// It returns the floats read afterwards, the run's start.
func (c *cluster) bookHeldBalances(ctx context.Context) ([]floatReading, error) {
	start, err := c.floats(ctx)
	if err != nil {
		return nil, err
	}
	booked := false
	for _, r := range start {
		if !r.readable {
			return nil, fmt.Errorf("provider %s: its balance cannot be read: %s", r.provider, r.err)
		}
		if d := r.reported - r.float; d != 0 {
			if _, err := c.pixgate(ctx, "provider", "adjust", r.provider, "--amount="+reais(d),
				"--reason", "the account's balance before PixGate", "--reference", "held-before-"+r.provider); err != nil {
				return nil, err
			}
			booked = true
		}
	}
	if !booked {
		return start, nil
	}
	return c.floats(ctx)
}

// judgeFloats compares each provider's float account with its balance
// after the drain (end), against the difference at the start (start): a
// line per provider for the report, and a problem for each that could not
// be read or whose float moved otherwise than its balance.
func judgeFloats(start, end []floatReading) (lines, problems []string) {
	before := map[string]floatReading{}
	for _, r := range start {
		before[r.provider] = r
	}
	for _, r := range end {
		b, ok := before[r.provider]
		switch {
		case !r.readable:
			problems = append(problems, fmt.Sprintf("float of provider %s: its balance could not be read after the drain: %s", r.provider, r.err))
			continue
		case !ok || !b.readable:
			problems = append(problems, fmt.Sprintf("float of provider %s: its balance was not read at the start", r.provider))
			continue
		}
		held := b.reported - b.float // what it held before PixGate, and was not booked
		lines = append(lines, fmt.Sprintf("provider %s: balance R$ %s, float account R$ %s, equal", r.provider, reais(r.reported), reais(r.float)))
		if held != 0 {
			lines[len(lines)-1] += fmt.Sprintf(" once the R$ %s it held before the run is set aside", reais(held))
		}
		if d := r.reported - r.float - held; d != 0 {
			lines[len(lines)-1] = fmt.Sprintf("provider %s: balance R$ %s, float account R$ %s, R$ %s held before the run: R$ %s unexplained",
				r.provider, reais(r.reported), reais(r.float), reais(held), reais(d))
			problems = append(problems, fmt.Sprintf("float of provider %s: balance R$ %s, float account R$ %s; the difference moved from R$ %s to R$ %s",
				r.provider, reais(r.reported), reais(r.float), reais(held), reais(r.reported-r.float)))
		}
	}
	return lines, problems
}
