package docs

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The documents whose Go blocks run: the README and every page of docs/.
func documents(t *testing.T) []string {
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(docs)
	return append([]string{filepath.Join(root, "README.md")}, docs...)
}

// root is the checkout's top directory.
var root = func() string {
	abs, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		panic(err)
	}
	return abs
}()

// block is one fenced code block of a document.
type block struct {
	doc   string // the document's path relative to root
	line  int    // line of the block's first code line in the document
	info  string // the fence's info string ("go", "output", ...)
	code  string
	want  *block // the ```output block right after a go block, if any
	index int    // index among the document's go blocks
}

var fence = regexp.MustCompile("^(\\s*)(```+)(.*)$")

// declStart is a line that begins a top-level declaration of a fragment
// (assemble), and notName a character a program's directory name avoids.
var (
	declStart = regexp.MustCompile(`^(func |type |var \(|const \(|import )`)
	notName   = regexp.MustCompile(`[^A-Za-z0-9_]`)
)

// parseBlocks returns the fenced blocks of a markdown document, with each
// go block's following output block attached.
func parseBlocks(t *testing.T, path string) []*block {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rel, _ := filepath.Rel(root, path)
	var blocks []*block
	var cur *block
	var ticks, indent string
	var body []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		m := fence.FindStringSubmatch(line)
		switch {
		case cur == nil && m != nil:
			indent, ticks = m[1], m[2]
			cur = &block{doc: rel, line: n + 1, info: strings.TrimSpace(m[3])}
			body = nil
		case cur != nil && m != nil && m[2] == ticks && strings.TrimSpace(m[3]) == "":
			cur.code = strings.Join(body, "\n") + "\n"
			blocks = append(blocks, cur)
			cur = nil
		case cur != nil:
			body = append(body, strings.TrimPrefix(line, indent))
		}
	}
	if cur != nil {
		t.Fatalf("%s:%d: unclosed code block", rel, cur.line-1)
	}
	var out []*block
	goIndex := 0
	for i, b := range blocks {
		switch lang(b.info) {
		case "go":
			b.index = goIndex
			goIndex++
			if i+1 < len(blocks) && lang(blocks[i+1].info) == "output" {
				b.want = blocks[i+1]
			}
			out = append(out, b)
		}
	}
	return out
}

func lang(info string) string {
	f := strings.Fields(info)
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// imports maps the package names the documents use to their import paths:
// a fragment's imports are added from its selectors. A block that uses a
// package missing here fails with a message naming it.
var imports = map[string]string{
	"fmt": "fmt", "os": "os", "math": "math", "strings": "strings", "errors": "errors", "log": "log",
	"time": "time", "context": "context", "rand": "math/rand/v2", "filepath": "path/filepath",
	"tensor":    "github.com/stela-ml/stela/frontend/tensor",
	"jit":       "github.com/stela-ml/stela/frontend/jit",
	"examples":  "github.com/stela-ml/stela/frontend/examples",
	"mnist":     "github.com/stela-ml/stela/frontend/datasets/mnist",
	"ir":        "github.com/stela-ml/stela/ir",
	"npy":       "github.com/stela-ml/stela/ir/npy",
	"passes":    "github.com/stela-ml/stela/passes",
	"lowering":  "github.com/stela-ml/stela/lowering",
	"stablehlo": "github.com/stela-ml/stela/stablehlo",
	"runtime":   "github.com/stela-ml/stela/runtime",
	"pjrt":      "github.com/stela-ml/stela/pjrt",
}

// program is one Go program made of a document's blocks: a block that is a
// whole file (it starts with a package clause) is a program of its own;
// the document's other blocks are read as one notebook, in order: their
// declarations go to the file's top level, their statements into main, one
// block after the other, so a later block sees an earlier one's variables.
type program struct {
	name   string // directory name in the generated module
	doc    string
	file   string
	blocks []*block // in order; their stdout is split by markers
}

const marker = "\x00stela-doc-block "

func buildPrograms(t *testing.T, doc string, blocks []*block) []*program {
	var progs []*program
	base := strings.TrimSuffix(strings.ReplaceAll(doc, string(filepath.Separator), "_"), ".md")
	base = strings.ToLower(notName.ReplaceAllString(base, "_"))
	var notebook []*block
	for _, b := range blocks {
		if isFile(b.code) {
			progs = append(progs, &program{
				name: fmt.Sprintf("%s_%d", base, b.index), doc: doc, blocks: []*block{b},
				file: fmt.Sprintf("//line %s:%d\n%s", filepath.ToSlash(b.doc), b.line, b.code),
			})
			continue
		}
		notebook = append(notebook, b)
	}
	if len(notebook) > 0 {
		src, err := assemble(notebook)
		if err != nil {
			t.Errorf("%v", err)
		} else {
			progs = append(progs, &program{name: base, doc: doc, blocks: notebook, file: src})
		}
	}
	return progs
}

func isFile(code string) bool {
	for _, l := range strings.Split(code, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "//") {
			continue
		}
		return strings.HasPrefix(l, "package ")
	}
	return false
}

// assemble makes one main package of fragment blocks. A line at column 0
// that starts with func, type, var (, const ( or import begins a top-level
// declaration, which runs to the next line that is only "}" or ")"; the
// other lines are statements. //line directives keep the document's file
// and line in compile errors and in the locations Stela reports; lines
// inside a raw string literal get none (they would become its text).
func assemble(blocks []*block) (string, error) {
	var decls, body strings.Builder
	for _, b := range blocks {
		lines := strings.Split(strings.TrimRight(b.code, "\n"), "\n")
		fmt.Fprintf(&body, "\tfmt.Print(%q)\n", marker+strconv.Itoa(b.index)+"\n")
		inDecl, inImport, inRaw := false, false, false
		for i, l := range lines {
			pos := fmt.Sprintf("/*line %s:%d:1*/", filepath.ToSlash(b.doc), b.line+i)
			starts := declStart.MatchString(l)
			wasRaw := inRaw
			inRaw = inRaw != (strings.Count(l, "`")%2 == 1)
			switch {
			case wasRaw && !inDecl:
				fmt.Fprintf(&body, "%s\n", l)
			case inImport: // imports come from the table
				inImport = l != ")"
			case inDecl:
				fmt.Fprintf(&decls, "%s\n", l)
				if l == "}" || l == ")" {
					inDecl = false
				}
			case starts:
				if strings.HasPrefix(l, "import ") {
					inImport = strings.HasSuffix(strings.TrimSpace(l), "(")
					continue
				}
				fmt.Fprintf(&decls, "%s%s\n", pos, l)
				trimmed := strings.TrimSpace(l)
				inDecl = strings.HasSuffix(trimmed, "{") || strings.HasSuffix(trimmed, "(")
			default:
				if strings.TrimSpace(l) == "" {
					body.WriteString("\n")
					continue
				}
				fmt.Fprintf(&body, "%s%s\n", pos, l)
			}
		}
	}
	src := "package main\n\n" + decls.String() + "\nfunc main() {\n" + body.String() + "}\n"
	return addImports(src, blocks[0].doc)
}

// addImports parses src and adds an import for every package name of the
// table that it uses as a selector and does not declare itself (a package
// missing from the table is then an undefined name in the compiler's
// message, at the document's line).
func addImports(src, doc string) (string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "main.go", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return "", fmt.Errorf("%s: the Go blocks do not parse: %v", doc, err)
	}
	declared := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for _, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						declared[id.Name] = true
					}
				}
			}
		case *ast.ValueSpec:
			for _, id := range n.Names {
				declared[id.Name] = true
			}
		case *ast.FuncDecl:
			declared[n.Name.Name] = true
		case *ast.Field:
			for _, id := range n.Names {
				declared[id.Name] = true
			}
		}
		return true
	})
	used := map[string]bool{"fmt": true} // the block markers print
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && !declared[id.Name] && imports[id.Name] != "" {
				used[id.Name] = true
			}
		}
		return true
	})
	names := make([]string, 0, len(used))
	for n := range used {
		names = append(names, n)
	}
	sort.Strings(names)
	var imp strings.Builder
	imp.WriteString("import (\n")
	for _, n := range names {
		fmt.Fprintf(&imp, "\t%q\n", imports[n])
	}
	imp.WriteString(")\n")
	return strings.Replace(src, "package main\n", "package main\n\n"+imp.String(), 1), nil
}

// TestDocs compiles and runs every Go block of README.md and docs/*.md as
// a program of an outside module that requires Stela (with a replace
// directive pointing at this checkout), as a user who copies them would,
// and compares each block's standard output with the ```output block that
// follows it, where the document shows one.
func TestDocs(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	var progs []*program
	for _, d := range documents(t) {
		blocks := parseBlocks(t, d)
		rel, _ := filepath.Rel(root, d)
		progs = append(progs, buildPrograms(t, rel, blocks)...)
	}
	if len(progs) == 0 {
		t.Fatal("no Go blocks found")
	}
	mod := t.TempDir()
	gomod := "module example.com/stela-docs\n\ngo 1.26\n\nrequire github.com/stela-ml/stela v0.0.0\n\nreplace github.com/stela-ml/stela => " + root + "\n"
	write(t, filepath.Join(mod, "go.mod"), gomod)
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(mod, "go.sum"), string(sum))
	for _, p := range progs {
		write(t, filepath.Join(mod, p.name, "main.go"), p.file)
	}
	bin := filepath.Join(mod, "bin")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	build := exec.CommandContext(ctx, "go", "build", "-mod=mod", "-o", bin+string(filepath.Separator), "./...")
	build.Dir = mod
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the documents' Go blocks as an outside module:\n%s", out)
	}
	for _, p := range progs {
		t.Run(p.name, func(t *testing.T) {
			cmd := exec.CommandContext(ctx, filepath.Join(bin, p.name))
			cmd.Dir = t.TempDir()
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("%s: the program of its Go blocks failed: %v\nstdout:\n%s\nstderr:\n%s", p.doc, err, stdout.String(), stderr.String())
			}
			outs := splitOutput(stdout.String(), p.blocks)
			for _, b := range p.blocks {
				if b.want == nil {
					continue
				}
				if got, want := normalize(outs[b.index]), normalize(b.want.code); got != want {
					t.Errorf("%s:%d: the Go block prints\n%s\nbut the document shows (line %d)\n%s", b.doc, b.line, got, b.want.line, want)
				}
			}
		})
	}
}

// splitOutput cuts a notebook's stdout at the block markers.
func splitOutput(s string, blocks []*block) map[int]string {
	outs := map[int]string{}
	if len(blocks) == 1 && !strings.Contains(s, marker) {
		outs[blocks[0].index] = s
		return outs
	}
	parts := strings.Split(s, marker)
	for _, part := range parts[1:] {
		idx, rest, _ := strings.Cut(part, "\n")
		i, err := strconv.Atoi(idx)
		if err == nil {
			outs[i] = rest
		}
	}
	return outs
}

func normalize(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return strings.Join(lines, "\n")
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
