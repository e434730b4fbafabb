// Package docs tests the documentation: every Go block of README.md and
// docs/*.md is compiled and run as a program of an outside module that
// depends on Stela, and its output is compared with the document's.
//
// The rules a document follows:
//
//   - A ```go block that starts with a package clause is a whole program.
//   - The other ```go blocks of one document are read as a notebook, in
//     order: their top-level declarations (func, type, var (...), const
//     (...)) go to the top of one file and their statements into one main
//     function, so a later block uses an earlier one's variables (and
//     assigns them with =, not :=). Imports come from the package names the
//     blocks use (the table in docs_test.go).
//   - A ```output block after a ```go block (the next fenced block) is what
//     that block prints to stdout, compared line by line (trailing spaces
//     ignored).
//   - //line directives keep the document's file and line in compile errors
//     and in the Go locations Stela reports, so an error printed by a block
//     names README.md or docs/guide.md and the block's line.
package docs
