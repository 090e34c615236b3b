package benchreport

// Reading go test -bench output and taking medians.

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// Results are the benchmarks of one input, in order of first appearance.
type Results struct {
	CPU     string // go test's "cpu:" line
	Benches []*Bench
}

// Bench is one benchmark's runs (one per -count).
type Bench struct {
	Name  string // without the -GOMAXPROCS suffix
	Procs int
	Runs  []map[string]float64 // unit → value; "ns/op", "B/op", custom metrics
	Iters []int64
}

func (r *Results) get(name string) *Bench {
	for _, b := range r.Benches {
		if b.Name == name {
			return b
		}
	}
	return nil
}

// Parse reads go test -bench output. A failure reported in it is an error.
func Parse(r io.Reader) (*Results, error) {
	res := &Results{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "--- FAIL") || strings.HasPrefix(line, "FAIL") || strings.HasPrefix(line, "panic:") {
			return nil, fmt.Errorf("the benchmarks failed: %s", line)
		}
		if v, ok := strings.CutPrefix(line, "cpu: "); ok {
			res.CPU = strings.TrimSpace(v)
			continue
		}
		if !strings.HasPrefix(line, "Benchmark") {
			continue
		}
		f := strings.Fields(line)
		if len(f) < 4 || len(f)%2 != 0 {
			continue // a benchmark name printed alone, before its result
		}
		iters, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			continue
		}
		run := map[string]float64{}
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				return nil, fmt.Errorf("unreadable value %q in %q", f[i], line)
			}
			run[f[i+1]] = v
		}
		name, procs := f[0], 1
		if i := strings.LastIndexByte(name, '-'); i > 0 {
			if p, err := strconv.Atoi(name[i+1:]); err == nil {
				name, procs = name[:i], p
			}
		}
		b := res.get(name)
		if b == nil {
			b = &Bench{Name: name, Procs: procs}
			res.Benches = append(res.Benches, b)
		}
		b.Runs = append(b.Runs, run)
		b.Iters = append(b.Iters, iters)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(res.Benches) == 0 {
		return nil, errors.New("no benchmark results in the input")
	}
	return res, nil
}

// Stat is the median and range of one metric over a benchmark's runs.
type Stat struct {
	Median, Min, Max float64
	N                int
}

// Stat summarizes unit over b's runs; N is 0 when no run reported it.
func (b *Bench) Stat(unit string) Stat {
	var vs []float64
	for _, r := range b.Runs {
		if v, ok := r[unit]; ok {
			vs = append(vs, v)
		}
	}
	if len(vs) == 0 {
		return Stat{}
	}
	slices.Sort(vs)
	m := vs[len(vs)/2]
	if len(vs)%2 == 0 {
		m = (vs[len(vs)/2-1] + vs[len(vs)/2]) / 2
	}
	return Stat{Median: m, Min: vs[0], Max: vs[len(vs)-1], N: len(vs)}
}
