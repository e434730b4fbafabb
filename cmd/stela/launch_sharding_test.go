package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stela-ml/stela/pjrt/cpu"
)

// The sharding cases across processes (docs/distributed.md): every
// process of a job runs `stela demo sharding` on a mesh over all the
// processes' CPU devices, and each must print what one process prints on
// a mesh of as many devices of its own.

// runStela runs the stela at path with args and extra environment, in a
// PATH where `stela` is that binary.
func runStela(t *testing.T, stela string, env []string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	cmd := exec.Command(stela, args...)
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(stela)+string(os.PathListSeparator)+os.Getenv("PATH"))
	cmd.Env = append(cmd.Env, env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err = cmd.Run()
	t.Logf("stela %s (%s): %v", strings.Join(args, " "), strings.Join(env, " "), time.Since(start).Round(time.Millisecond))
	return out.String(), errb.String(), err
}

func needWorker(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: runs the sharding cases in several processes")
	}
	if !cpu.HasGloo() {
		if os.Getenv("CI") == "true" {
			t.Fatal("the CPU plugin is built without Gloo here: install g++ and libgloo-dev (.ci/run does)")
		}
		t.Skip("the CPU plugin is built without Gloo here (install g++ and libgloo-dev)")
	}
	if os.Getenv("STELA_CPU_WORKER_PATH") == "" {
		if _, err := exec.LookPath("stela"); err != nil {
			t.Skip("no compile worker for the CPU plugin: set STELA_CPU_WORKER_PATH to a built stela")
		}
	}
}

// caseLine matches a result line of stela demo sharding's table.
var caseLine = regexp.MustCompile(`^(?:\[p(\d+)\] )?([a-z0-9-]+ +(?:partition|annotate) .*)$`)

// demoLines returns the demo's result lines by process (-1: unprefixed).
func demoLines(out string) map[int][]string {
	lines := map[int][]string{}
	for _, l := range strings.Split(out, "\n") {
		m := caseLine.FindStringSubmatch(l)
		if m == nil || strings.HasPrefix(m[2], "case ") {
			continue
		}
		p := -1
		if m[1] != "" {
			fmt.Sscan(m[1], &p)
		}
		lines[p] = append(lines[p], m[2])
	}
	return lines
}

// TestLaunchDemoSharding runs exactly `stela launch -n 4 -- stela demo
// sharding`, with 2 CPU devices per process: the mesh of 8 spans the 4
// processes, and each prints the lines one process prints on 8 devices
// of its own (collectives, bytes moved, difference from the unsharded
// program, ok).
func TestLaunchDemoSharding(t *testing.T) {
	needWorker(t)
	stela, _ := launchBins(t)
	one, errOne, err := runStela(t, stela, []string{"STELA_CPU_DEVICES=8"}, "demo", "sharding")
	if err != nil {
		t.Fatalf("stela demo sharding: %v\n%s%s", err, one, errOne)
	}
	want := demoLines(one)[-1]
	if len(want) < 14 {
		t.Fatalf("stela demo sharding printed %d result lines:\n%s", len(want), one)
	}
	out, errb, err := runStela(t, stela, []string{"STELA_CPU_DEVICES=2"}, "launch", "-n", "4", "--", "stela", "demo", "sharding")
	if err != nil {
		t.Fatalf("stela launch -n 4 -- stela demo sharding: %v\nstdout:\n%s\nstderr:\n%s", err, out, errb)
	}
	got := demoLines(out)
	for p := range 4 {
		if strings.Join(got[p], "\n") != strings.Join(want, "\n") {
			t.Errorf("process %d printed\n%s\nwant (one process, 8 devices)\n%s", p, strings.Join(got[p], "\n"), strings.Join(want, "\n"))
		}
		if m := fmt.Sprintf("[p%d] process %d of 4: the mesh's devices are ", p, p); !strings.Contains(out, m) {
			t.Errorf("stdout lacks %q:\n%s", m, out)
		}
	}
}

// TestLaunchShardingTwoProcesses runs the data-parallel and
// tensor-parallel MLPs, the 2-D mesh and the data-parallel training step
// on 2 processes x 2 CPU devices: the same numbers, to the last bit, as
// one process on 4 devices.
func TestLaunchShardingTwoProcesses(t *testing.T) {
	needWorker(t)
	stela, _ := launchBins(t)
	cases := []string{"mlp-data-parallel", "mlp-tensor-parallel", "mesh-2d", "train-data-parallel"}
	args := append([]string{"demo", "sharding", "--json", "--devices", "4"}, cases...)
	one, errOne, err := runStela(t, stela, []string{"STELA_CPU_DEVICES=4"}, args...)
	if err != nil {
		t.Fatalf("stela demo sharding: %v\n%s%s", err, one, errOne)
	}
	out, errb, err := runStela(t, stela, []string{"STELA_CPU_DEVICES=2"}, append([]string{"launch", "-n", "2", "--", "stela"}, args...)...)
	if err != nil {
		t.Fatalf("stela launch -n 2: %v\nstdout:\n%s\nstderr:\n%s", err, out, errb)
	}
	results := func(out, prefix string) []map[string]any {
		var rs []map[string]any
		for _, l := range strings.Split(out, "\n") {
			l, ok := strings.CutPrefix(l, prefix)
			if !ok || !strings.HasPrefix(l, "{") {
				continue
			}
			var r map[string]any
			if err := json.Unmarshal([]byte(l), &r); err != nil {
				t.Fatalf("%q: %v", l, err)
			}
			delete(r, "mesh") // its device names differ
			rs = append(rs, r)
		}
		return rs
	}
	want := results(one, "")
	if len(want) != 2*len(cases) {
		t.Fatalf("one process: %d results, want %d:\n%s", len(want), 2*len(cases), one)
	}
	for _, r := range want {
		if r["ok"] != true {
			t.Fatalf("one process: %v", r)
		}
	}
	for p := range 2 {
		got := results(out, fmt.Sprintf("[p%d] ", p))
		a, _ := json.Marshal(got)
		b, _ := json.Marshal(want)
		if string(a) != string(b) {
			t.Errorf("process %d of 2:\n%s\nwant (one process, 4 devices):\n%s", p, a, b)
		}
	}
}
