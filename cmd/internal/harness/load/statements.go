package load

import (
	"bufio"
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// statementsMetric is the counter of SQL statements the api and the worker
// export on their /metrics (storage.StatementCounter).
const statementsMetric = "pixgate_sql_statements_total"

// statementCount counts PixGate's SQL statements over a phase, the api's
// and the worker's together, from their /metrics.
type statementCount struct {
	t     *topology
	start int64
	ok    bool
}

func (t *topology) countStatements(ctx context.Context) statementCount {
	n, ok := t.statementsNow(ctx)
	return statementCount{t: t, start: n, ok: ok}
}

// since is the statements sent since the count began; 0 when either end
// could not be read or a process restarted in between.
func (c statementCount) since(ctx context.Context) int64 {
	n, ok := c.t.statementsNow(ctx)
	if !ok || !c.ok || n < c.start {
		return 0
	}
	return n - c.start
}

// statementsNow is the api's and the worker's statements so far.
func (t *topology) statementsNow(ctx context.Context) (int64, bool) {
	var sum int64
	for _, addr := range []string{t.apiAdmin, t.workerAdmin} {
		n, ok := scrapeCounter(ctx, "http://"+addr+"/metrics", statementsMetric)
		if !ok {
			return 0, false
		}
		sum += n
	}
	return sum, true
}

// scrapeCounter reads one unlabelled counter from a Prometheus text page.
func scrapeCounter(ctx context.Context, url, name string) (int64, bool) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, false
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, false
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, false
	}
	return counterIn(bufio.NewScanner(resp.Body), name)
}

// counterIn finds "name value" among the lines of a Prometheus text page.
func counterIn(sc *bufio.Scanner, name string) (int64, bool) {
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		v, ok := strings.CutPrefix(sc.Text(), name+" ")
		if !ok {
			continue
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		return int64(f), err == nil
	}
	return 0, false
}
