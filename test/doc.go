// Package test holds Stela's black-box, cross-package tests: golden dumps of
// the built-in examples at every stage, and (as they land) end-to-end tests
// of errors at call sites, lowering, op semantics and whole-pipeline fuzzing.
// Unit tests live beside their packages.
package test
