package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// The api's JSON log said "grace":15000000000 when asked to stop: slog's
// JSON handler writes a duration as nanoseconds. Durations are now
// written as people read them, in JSON and in text.
func TestLogsWriteDurationsForPeople(t *testing.T) {
	for _, format := range []string{"json", "text"} {
		var buf bytes.Buffer
		newLogger(&buf, "info", format).Info("stop requested: finishing the work in flight", "grace", shutdownGrace,
			"wait", 1500*time.Millisecond)
		line := buf.String()
		if format == "json" {
			var v map[string]any
			if err := json.Unmarshal(buf.Bytes(), &v); err != nil {
				t.Fatalf("%v: %s", err, line)
			}
			if v["grace"] != "15s" || v["wait"] != "1.5s" {
				t.Errorf("json: grace %v, wait %v: %s", v["grace"], v["wait"], line)
			}
			continue
		}
		if !strings.Contains(line, "grace=15s") || !strings.Contains(line, "wait=1.5s") {
			t.Errorf("text: %s", line)
		}
	}
}
