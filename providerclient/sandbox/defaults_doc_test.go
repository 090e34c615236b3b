package sandbox

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// docs/provider.md's table of the sandbox's defaults said a notification
// was tried 4 times, 0.1, 0.2 and 0.4 s apart, while the sandbox tries it
// for up to an hour. Each row is now read against what withDefaults gives,
// and so is every other place the docs state the notification retries.
func TestDocsStateTheSandboxDefaults(t *testing.T) {
	d := withDefaults(Config{})
	doc := readDoc(t, "../../docs/provider.md")
	_, section, _ := strings.Cut(doc, "### Defaults\n")
	section, _, _ = strings.Cut(section, "\n## ")
	rows := map[string]string{}
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(line, " | ")
		if len(cells) == 2 && strings.HasPrefix(line, "| ") {
			rows[strings.TrimPrefix(cells[0], "| ")] = strings.TrimSuffix(cells[1], " |")
		}
	}
	retries := []string{docDuration(d.NotifyMaxElapsed), docDuration(notifyFirstWait), docDuration(d.NotifyMaxInterval)}
	want := map[string][]string{
		"client id / secret":                        {"`" + d.ClientID + "` / `" + d.ClientSecret + "`"},
		"access token lifetime (`expires_in`)":      {fmt.Sprintf("%d s", int(d.TokenTTL.Seconds()))},
		"settlement delay of payments and refunds":  {docDuration(d.SettleDelay)},
		"charge expiration (`calendar.expiration`)": {fmt.Sprintf("%d s", int(d.ChargeExpiration.Seconds()))},
		"merchant name / city in BR Codes":          {"`" + d.MerchantName + "` / `" + d.MerchantCity + "`"},
		"starting balance":                          {"R$ 1,000,000.00"},
		"notification retries":                      retries,
		"notification timeout":                      {docDuration(d.HTTPClient.Timeout) + " per attempt"},
	}
	if d.InitialBalance.String() != "1000000.00" {
		t.Errorf("the starting balance is R$ %s; the table says R$ 1,000,000.00", d.InitialBalance)
	}
	for row, parts := range want {
		cell, ok := rows[row]
		if !ok {
			t.Errorf("docs/provider.md: the Defaults table has no row %q (rows: %q)", row, keys(rows))
			continue
		}
		for _, p := range parts {
			if !strings.Contains(cell, p) {
				t.Errorf("docs/provider.md: Defaults row %q says %q, which lacks %q", row, cell, p)
			}
		}
	}
	// The prose on notifications, and the chaos run's description of its
	// sandboxes, which run with these defaults.
	for _, place := range []struct{ file, after string }{
		{"../../docs/provider.md", "A notification the receiver does not accept"},
		{"../../docs/reliability.md", "A sandbox retries a notification"},
	} {
		text := readDoc(t, place.file)
		i := strings.Index(text, place.after)
		if i < 0 {
			t.Errorf("%s: no sentence starting %q", place.file, place.after)
			continue
		}
		sentence, _, _ := strings.Cut(strings.Join(strings.Fields(text[i:]), " "), ". ")
		for _, p := range retries {
			if !strings.Contains(sentence, p) {
				t.Errorf("%s: %q lacks %q", place.file, sentence, p)
			}
		}
	}
}

// docDuration writes d as the docs do: "200 ms", "5 s", "1 h".
func docDuration(d time.Duration) string {
	switch {
	case d < time.Second:
		return fmt.Sprintf("%d ms", d.Milliseconds())
	case d%time.Hour == 0:
		return fmt.Sprintf("%d h", int(d.Hours()))
	}
	return fmt.Sprintf("%g s", d.Seconds())
}

func readDoc(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func keys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
