package main

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stela-ml/stela/internal/env/envtest"
)

// TestHelpEveryCommand loops over the command table: every command
// answers --help, -h and `stela help CMD` with its usage on stdout and
// exit status 0, and describes every flag it defines (argument name,
// doc) and every positional argument. A new command whose run function
// does not parse its flags first, or a flag without a doc, fails here.
func TestHelpEveryCommand(t *testing.T) {
	for _, c := range commands {
		t.Run(c.name, func(t *testing.T) {
			fs := flagsOf(c)
			if fs == nil {
				t.Fatalf("%s --help does not return the command's flag set: its run function must parse flags from newFlags before anything else", c.name)
			}
			if c.doc == "" {
				t.Errorf("%s has no doc", c.name)
			}
			var first string
			for _, args := range [][]string{{c.name, "--help"}, {c.name, "-h"}, {"help", c.name}} {
				var out, errb strings.Builder
				if code := run(args, &out, &errb); code != 0 || errb.Len() != 0 {
					t.Errorf("stela %s: exit %d, stderr %q; want 0 and nothing", strings.Join(args, " "), code, errb.String())
				}
				if first == "" {
					first = out.String()
				} else if out.String() != first {
					t.Errorf("stela %s prints other help than stela %s --help:\n%s", strings.Join(args, " "), c.name, out.String())
				}
			}
			if !strings.HasPrefix(first, "usage: stela "+c.name) || !strings.Contains(first, "\n"+c.doc+"\n") {
				t.Errorf("stela %s --help does not start with the usage line and the doc:\n%s", c.name, first)
			}
			fs.VisitAll(func(f *flag.Flag) {
				name, doc := flag.UnquoteUsage(f)
				if strings.TrimSpace(doc) == "" {
					t.Errorf("--%s has no doc", f.Name)
				}
				if !isBoolFlag(f) && !strings.Contains(f.Usage, "`") {
					t.Errorf("--%s: its doc names no argument in backquotes (`NAME`), so help would call it %q", f.Name, name)
				}
				head := flagName(f.Name)
				if name != "" {
					head += " " + name
				}
				if !strings.Contains(first, "\n  "+head+"\n        "+doc) {
					t.Errorf("stela %s --help does not describe %s:\n%s", c.name, head, first)
				}
				if d := defaultText(f); d != "" && !strings.Contains(first, "(default "+d+")") {
					t.Errorf("stela %s --help does not give the default of %s (%s)", c.name, head, d)
				}
			})
			for _, a := range c.args {
				if a.doc == "" || !strings.Contains(first, "\n  "+a.name+"\n        "+a.doc+"\n") {
					t.Errorf("stela %s --help does not describe the argument %s:\n%s", c.name, a.name, first)
				}
			}
		})
	}
}

// helpSections splits `stela help` into each command's lines.
func helpSections(t *testing.T) map[string]string {
	t.Helper()
	var out, errb strings.Builder
	if code := run([]string{"help"}, &out, &errb); code != 0 {
		t.Fatalf("stela help: exit %d: %s", code, errb.String())
	}
	sections := map[string]string{}
	cur := ""
	for _, line := range strings.Split(out.String(), "\n") {
		if m := regexp.MustCompile(`^  (\S+)\s`).FindStringSubmatch(line); m != nil {
			cur = m[1]
		} else if !strings.HasPrefix(line, "           ") {
			cur = ""
		}
		if cur != "" {
			sections[cur] += line + "\n"
		}
	}
	return sections
}

// readmeFlags returns the flags README.md's "The CLI" section shows, by
// command.
func readmeFlags(t *testing.T) map[string][]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(b), "\n## The CLI\n")
	if !ok {
		t.Fatal(`README.md has no "## The CLI" section`)
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	flagRE := regexp.MustCompile(`(?:^|[\s\[|(])(--?[a-z][a-z0-9-]*)`)
	out := map[string][]string{}
	n := 0
	for _, line := range strings.Split(sec, "\n") {
		rest, ok := strings.CutPrefix(line, "go run ./cmd/stela ")
		if !ok {
			continue
		}
		n++
		rest, _, _ = strings.Cut(rest, " #")
		name, rest, _ := strings.Cut(rest, " ")
		for _, m := range flagRE.FindAllStringSubmatch(rest, -1) {
			out[name] = append(out[name], m[1])
		}
	}
	if n < 10 {
		t.Fatalf("found %d `go run ./cmd/stela` lines in README.md's CLI section; the parser is out of date", n)
	}
	return out
}

// listed reports whether a usage line in sec shows flag ("[--out DIR]").
func listed(sec, flag string) bool {
	return regexp.MustCompile(`\[` + regexp.QuoteMeta(flag) + `[ \]=]`).MatchString(sec)
}

// TestHelpListsEveryFlag: `stela help` lists, under each command, every
// flag the command defines and every flag README.md's CLI section shows
// for it (a README flag that the command does not define fails too).
func TestHelpListsEveryFlag(t *testing.T) {
	sections := helpSections(t)
	for _, c := range commands {
		sec := sections[c.name]
		if sec == "" {
			t.Errorf("stela help does not list %s", c.name)
			continue
		}
		flagsOf(c).VisitAll(func(f *flag.Flag) {
			if !listed(sec, flagName(f.Name)) {
				t.Errorf("stela help does not list %s's flag %s:\n%s", c.name, flagName(f.Name), sec)
			}
		})
	}
	for name, flags := range readmeFlags(t) {
		c := lookupCommand(name)
		if c == nil {
			t.Errorf("README.md shows `stela %s`, which is no command", name)
			continue
		}
		for _, f := range flags {
			long := "--" + strings.TrimLeft(f, "-")
			if flagsOf(c).Lookup(strings.TrimLeft(f, "-")) == nil {
				t.Errorf("README.md shows `stela %s %s`, which %s does not define", name, f, name)
			}
			if !listed(sections[name], f) && !listed(sections[name], long) {
				t.Errorf("README.md shows `stela %s %s`, which stela help does not list:\n%s", name, f, sections[name])
			}
		}
	}
}

// TestUsageErrors: a command line that does not fit the usage exits 2
// with a message that starts with "stela CMD:", then the usage line.
func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"check"},
		{"check", "--nosuch", "x.mlir"},
		{"dump"},
		{"dump", "--example"},
		{"fmt", "a.mlir", "b.mlir"},
		{"verify"},
		{"ops", "extra"},
		{"opt", "--reproduce", "r.sir", "x.sir"},
		{"passes", "extra"},
		{"plugin"},
		{"plugin", "where"},
		{"run"},
		{"bench", "--runs", "0"},
		{"bench", "--workload", "W8"},
		{"demo", "--runs", "many"},
		{"devices", "extra"},
		{"hash"},
		{"help", "nosuch"},
		{"help", "a", "b"},
	} {
		var out, errb strings.Builder
		code := run(args, &out, &errb)
		lines := strings.Split(errb.String(), "\n")
		if code != 2 || !strings.HasPrefix(lines[0], "stela "+args[0]+": ") || len(lines) < 2 || !strings.HasPrefix(lines[1], "usage: stela "+args[0]) {
			t.Errorf("stela %s: exit %d, stderr:\n%s\nwant 2 and \"stela %s: ...\", then the usage line", strings.Join(args, " "), code, errb.String(), args[0])
		}
	}
}

// TestEnvSwitches: stela exits 2 on an unknown word in STELA_DEBUG or
// STELA_LOG before running the command, and prints the words for help.
func TestEnvSwitches(t *testing.T) {
	for _, tc := range []struct {
		name, value  string
		code         int
		stdout, errs string
	}{
		{"STELA_DEBUG", "verify,nofusoin", 2, "", "stela: STELA_DEBUG=verify,nofusoin: unknown word \"nofusoin\" (valid: nans, noattention, nofusion, nolean, shuffle, verify; STELA_DEBUG=help describes them)\n"},
		{"STELA_LOG", "help", 0, "STELA_LOG: ", ""},
		{"STELA_LOG", "remarks", 0, "canonicalize ", ""},
	} {
		envtest.Setenv(t, tc.name, tc.value)
		var out, errb strings.Builder
		code := run([]string{"passes"}, &out, &errb)
		if code != tc.code || !strings.HasPrefix(out.String(), tc.stdout) || errb.String() != tc.errs {
			t.Errorf("%s=%s stela passes: exit %d, stdout %q, stderr %q; want %d, %q..., %q", tc.name, tc.value, code, out.String(), errb.String(), tc.code, tc.stdout, tc.errs)
		}
		envtest.Setenv(t, tc.name, "")
	}
}
