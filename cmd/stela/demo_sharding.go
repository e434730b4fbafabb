package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/stela-ml/stela/frontend/examples"
	"github.com/stela-ml/stela/frontend/sharding"
	"github.com/stela-ml/stela/runtime"
)

// runDemoSharding is `stela demo sharding`: every sharding case
// (examples.ShardingCases) on a mesh of N CPU devices, partitioned by
// Stela (mode partition) and annotated for the plugin's partitioner (mode
// annotate), each compared with the program unsharded. With --json it
// prints one JSON object per case and mode. It fails (exit 1) when a case
// is not ok.
func runDemoSharding(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("demo sharding")
	devices := fs.Int("devices", 8, "the number `N` of CPU devices of the mesh (STELA_CPU_DEVICES must allow it)")
	asJSON := fs.Bool("json", false, "print one JSON object per case and mode: case, mode, devices, collectives, bytes_moved, max_abs_diff, tolerance, ok")
	modes := fs.String("modes", "partition,annotate", "the `MODES` to run, comma-separated")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	var ms []sharding.Mode
	for _, m := range strings.Split(*modes, ",") {
		switch strings.TrimSpace(m) {
		case "partition":
			ms = append(ms, sharding.Partition)
		case "annotate":
			ms = append(ms, sharding.Annotate)
		default:
			return usagef("unknown mode %q (want partition or annotate)", m)
		}
	}
	// Under stela launch (STELA_COORDINATOR set) every process joins the
	// job, and the mesh spans all of them: --devices/N devices of each.
	job, err := runtime.InitDistributedFromEnv(context.Background())
	if err != nil {
		return err
	}
	var names []string
	if job != nil {
		defer job.Close()
		if names, err = jobDevices(*devices, job.NumProcesses()); err != nil {
			return err
		}
	}
	cases := examples.ShardingCases()
	if len(pos) > 0 {
		var sel []*examples.ShardingCase
		for _, name := range pos {
			found := false
			for _, c := range cases {
				if c.Name == name {
					sel, found = append(sel, c), true
				}
			}
			if !found {
				var names []string
				for _, c := range cases {
					names = append(names, c.Name)
				}
				return usagef("unknown case %q (have %s)", name, strings.Join(names, ", "))
			}
		}
		cases = sel
	}
	if !*asJSON {
		fmt.Fprintf(stdout, "stela demo sharding on %d CPU devices: each case sharded, in each mode, against the program unsharded\n", *devices)
		if job != nil {
			fmt.Fprintf(stdout, "process %d of %d: the mesh's devices are %s\n", job.ProcessID(), job.NumProcesses(), strings.Join(names, ", "))
		}
		fmt.Fprintln(stdout)
		fmt.Fprintf(stdout, "%-20s %-10s %-34s %12s %10s %10s  %s\n", "case", "mode", "collectives", "bytes moved", "max |Δ|", "tolerance", "ok")
	}
	bad := 0
	for _, c := range cases {
		for _, m := range ms {
			r := c.RunShardingOn(*devices, names, m)
			if !r.OK {
				bad++
			}
			if *asJSON {
				obj := map[string]any{
					"case": r.Case, "mode": r.Mode, "devices": r.Devices,
					"collectives": orEmpty(r.Collectives), "bytes_moved": r.BytesMoved,
					"max_abs_diff": r.MaxAbsDiff, "tolerance": r.Tolerance, "ok": r.OK,
					"mesh": r.Mesh, "collectives_known": r.Known,
				}
				if r.Err != nil {
					obj["error"] = r.Err.Error()
				}
				b, err := json.Marshal(obj)
				if err != nil {
					return err
				}
				fmt.Fprintln(stdout, string(b))
				continue
			}
			colls := collectiveList(r.Collectives)
			if !r.Known {
				colls = "(not reported)"
			}
			ok := "ok"
			if !r.OK {
				ok = "FAIL"
			}
			if r.Err != nil {
				fmt.Fprintf(stdout, "%-20s %-10s FAIL: %v\n", r.Case, r.Mode, r.Err)
				continue
			}
			fmt.Fprintf(stdout, "%-20s %-10s %-34s %12d %10.2g %10.2g  %s\n", r.Case, r.Mode, colls, r.BytesMoved, r.MaxAbsDiff, r.Tolerance, ok)
		}
	}
	if bad > 0 {
		if !*asJSON {
			fmt.Fprintf(stdout, "\n%d case(s) not ok\n", bad)
		}
		return exitError{1}
	}
	return nil
}

// jobDevices names the n CPU devices of the demo's meshes in a job of
// procs processes: the first n/procs devices of each process, in process
// order (the global device list's order).
func jobDevices(n, procs int) ([]string, error) {
	if n%procs != 0 {
		return nil, usagef("--devices %d: in a job of %d processes the mesh takes the same number of devices from each (a multiple of %d)", n, procs, procs)
	}
	all, err := runtime.GlobalFamilyDevices("cpu")
	if err != nil {
		return nil, err
	}
	per := len(all) / procs
	k := n / procs
	if k > per {
		return nil, fmt.Errorf("--devices %d: %d from each of %d processes, which have %d CPU devices each (set STELA_CPU_DEVICES)", n, k, procs, per)
	}
	var names []string
	for p := range procs {
		for i := range k {
			names = append(names, all[p*per+i].Name())
		}
	}
	return names, nil
}

func orEmpty(m map[string]int) map[string]int {
	if m == nil {
		return map[string]int{}
	}
	return m
}
