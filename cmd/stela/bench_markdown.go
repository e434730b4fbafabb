package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	goruntime "runtime"
	"slices"
	"strings"
	"time"
)

// benchEnvironment describes the run for the markdown table's heading:
// date, commit, machine, Go.
func benchEnvironment(device string, runs int) string {
	commit := "unknown commit"
	if out, err := exec.Command("git", "rev-parse", "--short", "HEAD").Output(); err == nil {
		commit = "commit " + strings.TrimSpace(string(out))
		if st, err := exec.Command("git", "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(bytes.TrimSpace(st)) > 0 {
			commit += " with uncommitted changes"
		}
	}
	cpu := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				cpu = strings.TrimSpace(v)
				break
			}
		}
	}
	return fmt.Sprintf("%s, %s; %s, %d CPUs; %s; device %s, %s; median of %d runs",
		time.Now().UTC().Format("2006-01-02"), commit, cpu, goruntime.NumCPU(), goruntime.Version(), device, benchThreads(), runs)
}

// benchMarkdown is the results of docs/performance.md: a table with one
// row per workload and metric, the bound and every side's median (Stela's
// modes, PyTorch's, NumPy's, JAX's), then a table of the targets.
func benchMarkdown(env string, rs []benchResult, ts []benchTarget) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Measured %s.", env)
	var torchV, jaxV string
	threads := 0
	for _, r := range rs {
		if r.TorchVersion != "" && torchV == "" {
			torchV, threads = r.TorchVersion, r.Threads
		}
		if r.JAXVersion != "" && jaxV == "" {
			jaxV = r.JAXVersion
		}
	}
	if torchV != "" {
		fmt.Fprintf(&b, " PyTorch %s, %d threads.", torchV, threads)
	}
	if jaxV != "" {
		fmt.Fprintf(&b, " JAX %s (XLA CPU).", jaxV)
	}
	var machine []string
	for _, r := range rs {
		if r.Workload == "bound" && r.Error == "" {
			machine = append(machine, fmt.Sprintf("%s %s %s", r.Metric, benchNum(r.Median), r.Unit))
		}
	}
	if len(machine) > 0 {
		fmt.Fprintf(&b, " Bounds: %s.", strings.Join(machine, ", "))
	}
	cell := func(r *benchResult) string {
		if r.Error != "" {
			return "error: " + strings.ReplaceAll(r.Error, "|", "\\|")
		}
		return benchValue(*r)
	}
	cols := []struct {
		head  string
		modes []string
	}{
		{"bound", []string{benchBoundMode}},
		{"Stela eager", []string{"eager"}},
		{"Stela fused", []string{"fused"}},
		{"Stela compiled", []string{"compiled"}},
		{"PyTorch", []string{torchEager, "torch-jit-trace"}},
		{"NumPy", []string{numpyMode}},
		{"JAX", []string{jaxEager, jaxJIT}},
	}
	b.WriteString("\n\n| workload | metric |")
	for _, c := range cols {
		b.WriteString(" " + c.head + " |")
	}
	b.WriteString("\n| --- | --- |" + strings.Repeat(" ---: |", len(cols)) + "\n")
	type row struct{ workload, metric string }
	var rows []row
	for _, r := range rs {
		k := row{r.Workload, r.Metric}
		if r.Workload != "bound" && !slices.Contains(rows, k) {
			rows = append(rows, k)
		}
	}
	// In workload order (the bounds come first in the results), metrics
	// in the order they ran.
	slices.SortStableFunc(rows, func(a, b row) int { return strings.Compare(a.workload, b.workload) })
	for _, k := range rows {
		fmt.Fprintf(&b, "| %s | %s |", k.workload, k.metric)
		for _, c := range cols {
			var parts []string
			for _, mode := range c.modes {
				for i := range rs {
					if r := &rs[i]; r.Workload == k.workload && r.Metric == k.metric && r.Mode == mode {
						v := cell(r)
						if mode == "torch-jit-trace" {
							v = "jit-trace " + v
						}
						parts = append(parts, v)
					}
				}
			}
			if len(parts) == 0 {
				parts = []string{"–"}
			}
			b.WriteString(" " + strings.Join(parts, "; ") + " |")
		}
		b.WriteString("\n")
	}
	if len(ts) == 0 {
		return b.String()
	}
	b.WriteString("\n| target | Stela | compared with | ratio | want | |\n| --- | ---: | ---: | ---: | --- | --- |\n")
	for _, t := range ts {
		vs, ratio := "–", "–"
		if t.Vs != "" {
			vs = fmt.Sprintf("%s %s %s", t.Vs, benchNum(t.Peer), t.Unit)
			ratio = benchRatio(t.Ratio)
		}
		verdict := "**missed**"
		if t.OK {
			verdict = "ok"
		}
		fmt.Fprintf(&b, "| %s | %s %s | %s | %s | %s | %s |\n", t.Target, benchNum(t.Stela), t.Unit, vs, ratio, t.Want, verdict)
	}
	return b.String()
}
