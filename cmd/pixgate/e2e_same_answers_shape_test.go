package main

import "testing"

// TestShapeOfADueChargeIsTheSameWheneverItWasCreated: two answers of a
// due-date charge with the same end, created 40 s apart across a minute's
// half, have the same shape; a charge without a due date keeps its span.
// (TestSameAnswersWhateverTheProvider failed now and then when its flows,
// run side by side, created their due charges either side of that half.)
func TestShapeOfADueChargeIsTheSameWheneverItWasCreated(t *testing.T) {
	answer := func(created string, due bool) map[string]any {
		v := map[string]any{"created_at": created, "expires_at": "2027-01-07T23:59:59-03:00"}
		if due {
			v["due"] = map[string]any{"date": "2027-01-05"}
		}
		return v
	}
	a, b := shapeOf(answer("2026-11-29T12:10:10Z", true)), shapeOf(answer("2026-11-29T12:10:50Z", true))
	if a["validity"] != b["validity"] {
		t.Fatalf("due charges: validity %q and %q", a["validity"], b["validity"])
	}
	if want := "until 23:59:59-03:00, 39 days after the day it was created"; a["validity"] != want {
		t.Fatalf("due charge: validity %q, want %q", a["validity"], want)
	}
	if got := shapeOf(map[string]any{"created_at": "2026-11-29T12:10:10Z", "expires_at": "2026-11-29T13:10:10Z"})["validity"]; got != "1h0m0s" {
		t.Fatalf("charge without a due date: validity %q, want 1h0m0s", got)
	}
}
