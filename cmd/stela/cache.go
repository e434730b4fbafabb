package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"time"

	"github.com/stela-ml/stela/internal/env"
	"github.com/stela-ml/stela/pjrt/cpu"
)

// runCache is `stela cache ls|clear|verify`: the Stela CPU plugin's
// compile cache on disk (docs/cache.md).
func runCache(args []string, stdout, stderr io.Writer) error {
	flags := newFlags("cache")
	pos, err := parseArgs(flags, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || (pos[0] != "ls" && pos[0] != "clear" && pos[0] != "verify") {
		return usagef("want one of ls, clear, verify; got %q", pos)
	}
	root, err := cpu.CacheDir()
	if err != nil {
		return err
	}
	limit, err := env.CacheMaxBytes()
	if err != nil {
		return err
	}
	switch pos[0] {
	case "clear":
		n, size, err := cpu.ClearCache(root)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "removed %d entries (%d bytes) from %s\n", n, size, root)
		return nil
	case "ls":
		es, err := cpu.ListCache(root)
		if err != nil {
			return err
		}
		var total int64
		for _, e := range es {
			total += e.Size
			what := signatureSummary(e.Signature)
			if e.Err != nil {
				what = "BAD: " + e.Err.Error()
			}
			fmt.Fprintf(stdout, "%.16s  %9d  %s  %s\n", e.Key, e.Size, e.Used.Format(time.DateTime), what)
		}
		lim := "no limit"
		if limit > 0 {
			lim = fmt.Sprintf("limit %d", limit)
		}
		fmt.Fprintf(stdout, "cache %s: %d entries, %d bytes (%s, %s)\n", root, len(es), total, lim, env.CacheMaxBytesVar)
		return nil
	}
	// verify
	es, err := cpu.ListCache(root)
	if err != nil {
		return err
	}
	bad := 0
	for _, e := range es {
		if e.Err != nil {
			bad++
			fmt.Fprintf(stdout, "%s: %v\n", e.Path, e.Err)
		}
	}
	fmt.Fprintf(stdout, "cache %s: %d entries, %d ok, %d bad\n", root, len(es), len(es)-bad, bad)
	plugin, perr := cpu.VerifyPlugin()
	switch {
	case perr == nil:
		fmt.Fprintf(stdout, "plugin %s: ok\n", plugin)
	case errors.Is(perr, fs.ErrNotExist):
		fmt.Fprintf(stdout, "plugin %s: %v\n", plugin, perr)
	default:
		bad++
		fmt.Fprintf(stdout, "plugin %s: %v\n", plugin, perr)
	}
	if bad > 0 {
		fmt.Fprintf(stderr, "stela cache: %d bad (the plugin removes a bad entry, and rebuilds a bad plugin, with a warning, when it meets one; stela cache clear removes every entry)\n", bad)
		return exitError{1}
	}
	return nil
}

// signatureSummary writes a stela_signature ("arg f32 2x3\nres f32 \n")
// as "(f32[2,3]) -> (f32[])".
func signatureSummary(sig string) string {
	var args, res []string
	for _, line := range strings.Split(strings.TrimSpace(sig), "\n") {
		f := strings.SplitN(strings.TrimSpace(line), " ", 3)
		if len(f) < 2 {
			continue
		}
		dims := ""
		if len(f) == 3 {
			dims = strings.ReplaceAll(f[2], "x", ",")
		}
		t := f[1] + "[" + dims + "]"
		if f[0] == "arg" {
			args = append(args, t)
		} else {
			res = append(res, t)
		}
	}
	return "(" + strings.Join(args, ", ") + ") -> (" + strings.Join(res, ", ") + ")"
}
