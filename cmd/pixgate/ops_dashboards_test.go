package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/hibiken/asynq/x/metrics"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/promql/parser"
	"github.com/redis/go-redis/v9"
	"go.yaml.in/yaml/v3"

	"github.com/pixgate/pixgate/api"
	"github.com/pixgate/pixgate/storage/storagetest"
	"github.com/pixgate/pixgate/tasks"
	"github.com/pixgate/pixgate/worker"
	"github.com/pixgate/pixgate/worker/statements"
)

// Every metric a dashboard (deploy/grafana) or an alert rule
// (deploy/prometheus) names is one the api or the worker exports, with
// every label its selectors and by() clauses use.
func TestDashboardsNameExportedMetrics(t *testing.T) {
	exported := exportedMetrics(t)
	files, err := filepath.Glob("../../deploy/grafana/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no dashboards: %v", err)
	}
	var exprs []namedExpr
	for _, f := range files {
		exprs = append(exprs, dashboardExprs(t, f)...)
	}
	groups, err := readRules("../../deploy/prometheus/alerts.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range groups.Groups {
		for _, r := range g.Rules {
			exprs = append(exprs, namedExpr{where: "alerts.yaml " + r.Alert, expr: r.Expr})
		}
	}
	for _, e := range exprs {
		uses, err := metricUses(e.expr)
		if err != nil {
			t.Errorf("%s: %v", e.where, err)
			continue
		}
		for _, u := range uses {
			labels, ok := exported[u.metric]
			if !ok {
				t.Errorf("%s: %s is not exported", e.where, u.metric)
				continue
			}
			for _, l := range u.labels {
				if !labels[l] {
					t.Errorf("%s: %s has no label %q (it has %v)", e.where, u.metric, l, labels)
				}
			}
		}
	}
}

type namedExpr struct{ where, expr string }

// grafanaVars are the interval variables Grafana fills in before a query
// reaches Prometheus.
var grafanaVars = strings.NewReplacer("$__rate_interval", "5m", "$__interval", "1m", "$__range", "1h")

// dashboardExprs is every PromQL expression of a dashboard's targets,
// wherever they are nested (rows hold panels); a dashboard must also offer
// the Prometheus datasource as a variable its panels use.
func dashboardExprs(t *testing.T, file string) []namedExpr {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		UID, Title string
		Templating struct {
			List []struct{ Name, Type, Query string }
		}
		Panels []any
	}
	if err := json.Unmarshal(b, &d); err != nil || d.UID == "" || d.Title == "" || len(d.Panels) == 0 {
		t.Fatalf("%s: a dashboard needs a uid, a title and panels (%v)", file, err)
	}
	hasDS := false
	for _, v := range d.Templating.List {
		hasDS = hasDS || (v.Name == "datasource" && v.Type == "datasource" && v.Query == "prometheus")
	}
	if !hasDS {
		t.Errorf("%s: no Prometheus datasource variable", file)
	}
	var out []namedExpr
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if e, ok := v["expr"].(string); ok {
				out = append(out, namedExpr{where: filepath.Base(file), expr: grafanaVars.Replace(e)})
			}
			if ds, ok := v["datasource"].(map[string]any); ok && ds["uid"] != "${datasource}" {
				t.Errorf("%s: a datasource not the variable: %v", file, ds)
			}
			for _, c := range v {
				walk(c)
			}
		case []any:
			for _, c := range v {
				walk(c)
			}
		}
	}
	walk(d.Panels)
	if len(out) == 0 {
		t.Errorf("%s: no expression", file)
	}
	return out
}

// use is a metric an expression reads and the labels it needs of it.
type use struct {
	metric string
	labels []string
}

// metricUses parses expr with Prometheus's own PromQL parser and lists each
// selector's metric with the labels of its matchers, and the labels of
// every by() and on()/ignoring()/group_left() clause above it.
func metricUses(expr string) ([]use, error) {
	node, err := parser.NewParser(parser.Options{}).ParseExpr(expr)
	if err != nil {
		return nil, err
	}
	var out []use
	parser.Inspect(node, func(n parser.Node, path []parser.Node) error {
		vs, ok := n.(*parser.VectorSelector)
		if !ok {
			return nil
		}
		u := use{metric: vs.Name}
		for _, m := range vs.LabelMatchers {
			if m.Name == "__name__" {
				u.metric = m.Value
				continue
			}
			u.labels = append(u.labels, m.Name)
		}
		for _, p := range path {
			switch p := p.(type) {
			case *parser.AggregateExpr:
				if !p.Without {
					u.labels = append(u.labels, p.Grouping...)
				}
			case *parser.BinaryExpr:
				if p.VectorMatching != nil && p.VectorMatching.On {
					u.labels = append(u.labels, p.VectorMatching.MatchingLabels...)
				}
			}
		}
		out = append(out, u)
		return nil
	})
	return out, nil
}

// exportedMetrics builds the metrics the api and worker processes register
// (cmd_api.go, cmd_worker.go, stack.go), on one registry as pixgate dev does,
// and lists each exported name with its labels: a histogram's _bucket (with
// le), _sum and _count. The queue collector describes the queues Redis
// holds: one task is enqueued first.
func exportedMetrics(t *testing.T) map[string]map[string]bool {
	t.Helper()
	rdb := redis.NewClient(storagetest.NewRedis(t))
	t.Cleanup(func() { rdb.Close() })
	if _, err := asynq.NewClientFromRedisClient(rdb).Enqueue(asynq.NewTask("ops:probe", nil), asynq.Queue(tasks.QueueEvents)); err != nil {
		t.Fatal(err)
	}
	reg := &describing{Registry: newRegistry()}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	c := &cli{log: log}
	def, err := c.defaultProvider()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.newProvider(reg, def, nil); err != nil {
		t.Fatal(err)
	}
	api.New(api.Config{}, api.Deps{Redis: rdb, Metrics: reg, Logger: log})
	worker.New(worker.Config{}, worker.Deps{Redis: rdb, Metrics: reg, Logger: log})
	statements.NewMetrics(reg)
	worker.NewOpsGauges(reg)
	worker.NewDeadlineGauges(reg)
	reg.MustRegister(metrics.NewQueueMetricsCollector(asynq.NewInspectorFromRedisClient(rdb)))
	return reg.exported(t)
}

// describing is a registry that keeps what is registered on it, to list
// every metric's descriptor: a vector with no series yet is exported the
// moment it has one, but gathers nothing before.
type describing struct {
	*prometheus.Registry
	collectors []prometheus.Collector
}

func (d *describing) Register(c prometheus.Collector) error {
	err := d.Registry.Register(c)
	if err == nil {
		d.collectors = append(d.collectors, c)
	}
	return err
}

func (d *describing) MustRegister(cs ...prometheus.Collector) {
	d.Registry.MustRegister(cs...)
	d.collectors = append(d.collectors, cs...)
}

// descRE reads a descriptor's name and variable labels from its String():
// client_golang offers no accessor.
var descRE = regexp.MustCompile(`^Desc\{fqName: "([^"]+)", .*variableLabels: \{([^}]*)\}\}$`)

func (d *describing) exported(t *testing.T) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	add := func(name string, labels []string) {
		if out[name] == nil {
			out[name] = map[string]bool{}
		}
		for _, l := range labels {
			out[name][l] = true
		}
	}
	for _, c := range d.collectors {
		ch := make(chan *prometheus.Desc, 64)
		go func() { c.Describe(ch); close(ch) }()
		for desc := range ch {
			m := descRE.FindStringSubmatch(desc.String())
			if m == nil {
				t.Fatalf("unreadable descriptor %s", desc)
			}
			labels := strings.FieldsFunc(m[2], func(r rune) bool { return r == ',' })
			add(m[1], labels)
			if _, isHistogram := c.(prometheus.ObserverVec); isHistogram {
				add(m[1]+"_bucket", append(labels, "le"))
				add(m[1]+"_sum", labels)
				add(m[1]+"_count", labels)
			}
		}
	}
	return out
}

// ruleFile is Prometheus 2.x's rule file; decoding refuses unknown fields,
// as promtool does.
type ruleFile struct {
	Groups []struct {
		Name     string `yaml:"name"`
		Interval string `yaml:"interval"`
		Rules    []struct {
			Alert       string            `yaml:"alert"`
			Record      string            `yaml:"record"`
			Expr        string            `yaml:"expr"`
			For         string            `yaml:"for"`
			Labels      map[string]string `yaml:"labels"`
			Annotations map[string]string `yaml:"annotations"`
		} `yaml:"rules"`
	} `yaml:"groups"`
}

func readRules(file string) (ruleFile, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return ruleFile{}, err
	}
	return parseRules(b)
}

// parseRules checks a rule file as promtool check rules does, and what
// PixGate asks of every alert besides: groups named once, each rule an
// alert with an expression that parses, a for: duration, a severity and
// a summary, a description and a runbook in docs/operations-dashboards.md.
func parseRules(b []byte) (ruleFile, error) {
	var f ruleFile
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		return f, err
	}
	seen := map[string]bool{}
	if len(f.Groups) == 0 {
		return f, fmt.Errorf("no rule groups")
	}
	for _, g := range f.Groups {
		if g.Name == "" || seen[g.Name] {
			return f, fmt.Errorf("group %q: a group needs a name of its own", g.Name)
		}
		seen[g.Name] = true
		for _, r := range g.Rules {
			if err := checkAlert(r.Alert, r.Record, r.Expr, r.For, r.Labels, r.Annotations); err != nil {
				return f, fmt.Errorf("group %s: %w", g.Name, err)
			}
		}
	}
	return f, nil
}

func checkAlert(alert, record, expr, forDur string, labels, annotations map[string]string) error {
	if alert == "" || record != "" {
		return fmt.Errorf("rule %q%q: every rule is an alert", alert, record)
	}
	if _, err := parser.NewParser(parser.Options{}).ParseExpr(expr); err != nil {
		return fmt.Errorf("%s: expr: %w", alert, err)
	}
	if d, err := model.ParseDuration(forDur); err != nil || time.Duration(d) <= 0 {
		return fmt.Errorf("%s: for: %q is not a duration", alert, forDur)
	}
	if !map[string]bool{"critical": true, "warning": true, "info": true}[labels["severity"]] {
		return fmt.Errorf("%s: severity %q", alert, labels["severity"])
	}
	for _, a := range []string{"summary", "description", "runbook"} {
		if annotations[a] == "" {
			return fmt.Errorf("%s: no %s", alert, a)
		}
	}
	if want := "docs/operations-dashboards.md#" + strings.ToLower(alert); annotations["runbook"] != want {
		return fmt.Errorf("%s: runbook %q, want %q", alert, annotations["runbook"], want)
	}
	return nil
}

// The rule file parses as promtool check rules would have it, and each
// alert's runbook is a heading of docs/operations-dashboards.md.
func TestAlertRules(t *testing.T) {
	f, err := readRules("../../deploy/prometheus/alerts.yaml")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("../../docs/operations-dashboards.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range f.Groups {
		for _, r := range g.Rules {
			if !bytes.Contains(doc, []byte("### "+r.Alert+"\n")) {
				t.Errorf("%s: no heading in docs/operations-dashboards.md", r.Alert)
			}
		}
	}
}

// Each refusal of a rule file.
func TestAlertRulesRefusals(t *testing.T) {
	const ok = `groups:
- name: g
  rules:
  - alert: A
    expr: up == 0
    for: 5m
    labels: {severity: warning}
    annotations: {summary: s, description: d, runbook: "docs/operations-dashboards.md#a"}
`
	if _, err := parseRules([]byte(ok)); err != nil {
		t.Fatalf("a good file: %v", err)
	}
	for _, c := range []struct{ name, from, to string }{
		{"an unknown field", "for: 5m", "for: 5m\n    keep: x"},
		{"an expression that does not parse", "up == 0", "sum by (a (up)"},
		{"no for", "for: 5m", "for: ''"},
		{"a bad for", "for: 5m", "for: soon"},
		{"no severity", "severity: warning", "team: x"},
		{"an unknown severity", "severity: warning", "severity: loud"},
		{"no runbook", `, runbook: "docs/operations-dashboards.md#a"`, ""},
		{"a runbook elsewhere", "#a", "#b"},
		{"a recording rule", "alert: A", "record: a"},
		{"a group without a name", "name: g", "name: ''"},
		{"no groups", ok, "groups: []\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			bad := strings.Replace(ok, c.from, c.to, 1)
			if bad == ok {
				t.Fatal("the case changes nothing")
			}
			if _, err := parseRules([]byte(bad)); err == nil {
				t.Errorf("accepted:\n%s", bad)
			}
		})
	}
}
