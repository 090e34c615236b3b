package main

import (
	"testing"
	"time"
)

// The create attempt's deadline and the hedge settings reach the fleet.
func TestFleetOptionsFromSettings(t *testing.T) {
	c := &cli{cfg: config{ProviderCreateAttempt: 1500 * time.Millisecond, ProviderHedgeAfter: 300 * time.Millisecond, ProviderHedgeAttempts: 2}}
	o := c.fleetOptions(nil)
	if o.CreateAttemptTimeout != 1500*time.Millisecond || o.HedgeAfter != 300*time.Millisecond || o.HedgeAttempts != 2 {
		t.Fatalf("fleet options %+v; want create attempt 1.5s, hedge after 300ms, 2 attempts", o)
	}
}
